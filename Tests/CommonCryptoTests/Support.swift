import Foundation

/// Bytes from hexadecimal, as test vectors are printed (spaces allowed).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Hexadecimal of bytes, lowercase.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Random bytes for the inputs checked against openssl.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// The openssl command, an implementation independent of swift-crypto, as the oracle.
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl arguments...` with `input` in a scratch file passed as `-in`, and returns
    /// what it wrote to standard output.
    static func run(_ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("commoncrypto-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("output")
        var arguments = arguments
        // kdf prints its key; the others write to -out. dgst takes its input last, without -in.
        if arguments.first != "kdf" { arguments += ["-out", output.path] }
        if let input {
            let file = folder.appendingPathComponent("input")
            try Data(input).write(to: file)
            arguments += arguments.first == "dgst" ? [file.path] : ["-in", file.path]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        let printed = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errors = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        if arguments.first == "kdf" {
            // kdf prints the key as hexadecimal bytes separated by colons.
            return hex(String(decoding: printed, as: UTF8.self).replacingOccurrences(of: ":", with: ""))
        }
        return [UInt8](try Data(contentsOf: output))
    }
}
