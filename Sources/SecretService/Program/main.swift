// keychain-secret-service: a Secret Service (org.freedesktop.secrets) provider on the user's
// session bus, over the keychain. Without arguments it serves until the bus closes (status 0)
// or it is stopped; with --install [--force] it writes the files that start it on first use.
import Foundation
import SecretService
#if canImport(Glibc)
import Glibc
#endif

/// Writes `message` as one line to `descriptor`; POSIX write, since FileHandle's traps when
/// the descriptor is closed.
func say(_ message: String, to descriptor: Int32) {
    let line = Array("keychain-secret-service: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    say(message, to: 2)
    exit(status)
}

let usage = """
    usage: keychain-secret-service              serve the session bus of DBUS_SESSION_BUS_ADDRESS
           keychain-secret-service --install [--force]
                                                write the D-Bus activation file and systemd user unit
                                                that start this program on first use (--force:
                                                replace files another program wrote)
           keychain-secret-service --import-from-running
                                                copy every item of the default collection of the
                                                Secret Service provider running now (GNOME Keyring)
                                                into the keychain

    KEYCHAIN_SECRET_SERVICE_MAX_REPLY_BYTES         the largest list of items a reply may carry, in
                                                bytes (1024 up to the D-Bus limit, the default);
                                                a search matching more is LimitsExceeded
    """

/// The absolute path of this program, as the kernel knows it.
func runningExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

switch Array(CommandLine.arguments.dropFirst()) {
case []:
    break
case ["--install"], ["--install", "--force"], ["--force", "--install"]:
    guard let executable = runningExecutable() else { fail("cannot tell this program's path from /proc/self/exe") }
    do throws(InstallFailure) {
        let files = try ActivationFiles(executable: executable, environment: ProcessInfo.processInfo.environment)
        for path in try files.install(force: CommandLine.arguments.contains("--force")) {
            say("wrote \(path)", to: 1)
        }
        exit(0)
    } catch {
        fail(error.message)
    }
case ["--import-from-running"]:
    do throws(StartFailure) {
        let move = try ProviderImport()
        let report = try move.run()
        say("imported \(report.added + report.replaced) items into \(move.keychainPath): \(report.added) added, "
            + "\(report.replaced) replaced, \(report.failures.count) failed", to: 1)
        for failure in report.failures { say("not imported: \(failure)", to: 2) }
        exit(report.failures.isEmpty ? 0 : 1)
    } catch {
        fail(error.message)
    }
default:
    say(usage, to: 2)
    exit(2)
}
// A prompt program that ends early (Dismiss stops it) must not end the provider with SIGPIPE
// when it writes to its pipe; the write fails with EPIPE instead.
signal(SIGPIPE, SIG_IGN)
do throws(StartFailure) {
    let provider = try SecretServiceProvider()
    try provider.start()
    // One line when the name is owned, so that a script or test can wait for it.
    say("serving \(SecretServiceProvider.busName) for the keychain \(provider.keychainPath)", to: 1)
    switch try provider.run() {
    case .busClosed: say("the session bus closed", to: 2)
    case .signalled(let number): say("stopped by signal \(number)", to: 2)
    }
    exit(0)
} catch {
    fail(error.message)
}
