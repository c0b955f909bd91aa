import ArgumentParser
import Foundation
import Security

/// `verify-cert`: a certificate chain evaluated under a policy, as `security verify-cert` does.
struct VerifyCertificate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-cert",
        abstract: "Verify a certificate chain.",
        discussion: """
            The first -c file holds the certificate to verify; further certificates (in it or in \
            more -c files) are intermediates. With -r, only those roots are trusted; without, the \
            system's roots (the distribution's CA bundle). Success prints "...certificate \
            verification successful."; failure prints "Cert Verify Result: <reason>" on standard \
            error and exits 1.
            """)

    @Option(name: .customShort("c"), help: ArgumentHelp("A certificate file (DER or PEM); the first is the one verified.", valueName: "certFile"))
    var certificateFiles: [String] = []

    @Option(name: .customShort("r"), help: ArgumentHelp("A root certificate file to trust (DER or PEM).", valueName: "rootCertFile"))
    var rootFiles: [String] = []

    @Option(name: .customShort("p"), help: ArgumentHelp("The policy: basic (default), ssl, ssl-server, ssl-client.", valueName: "policy"))
    var policy: CertificatePolicy = .basic

    @Option(name: .customShort("s"), help: ArgumentHelp("The host name an SSL server certificate must name.", valueName: "sslHost"))
    var hostName: String?

    @Option(name: .customShort("d"), help: ArgumentHelp("Verify as of this time, YYYY-MM-DD-hh:mm:ss (time optional), GMT.", valueName: "date"))
    var date: String?

    @Flag(name: .customShort("q"), help: "Quiet: print nothing, only exit 0 or 1.")
    var quiet = false

    func validate() throws {
        guard !certificateFiles.isEmpty else { throw ValidationError("Name the certificate to verify with -c <certFile>.") }
        if let date, Self.parseDate(date) == nil {
            throw ValidationError("-d takes a date as YYYY-MM-DD-hh:mm:ss (the time is optional), in GMT.")
        }
    }

    func run() throws {
        let chain = try certificateFiles.flatMap { file throws(ToolFailure) in try CertificateFile.certificates(at: file) }
        let roots = try rootFiles.flatMap { file throws(ToolFailure) in try CertificateFile.certificates(at: file) }
        let failure = try TrustVerdict.evaluate(chain, policy: policy.policy(hostName: hostName),
                                                anchors: roots.isEmpty ? nil : roots, date: date.flatMap(Self.parseDate))
        if let failure {
            if !quiet { ConsoleOutput.error("Cert Verify Result: \(TrustVerdict.name(of: failure))") }
            throw ToolFailure.reported(exitStatus: .failure)
        }
        if !quiet { ConsoleOutput.write("...certificate verification successful.\n") }
    }

    /// `YYYY-MM-DD-hh:mm:ss` or `YYYY-MM-DD`, in GMT.
    static func parseDate(_ text: String) -> Date? {
        let parts = text.split(separator: "-", maxSplits: 3).map(String.init)
        guard parts.count >= 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var time = [0, 0, 0]
        if parts.count == 4 {
            let fields = parts[3].split(separator: ":").map { Int($0) }
            guard (1...3).contains(fields.count), fields.allSatisfy({ $0 != nil }) else { return nil }
            for (index, field) in fields.enumerated() { time[index] = field ?? 0 }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: time[0], minute: time[1], second: time[2])
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
