// keychain-secret-service: a Secret Service (org.freedesktop.secrets) provider on the user's
// session bus, over the keychain. It takes no arguments; it serves until the bus closes
// (status 0) or it is stopped.
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

guard CommandLine.arguments.count == 1 else {
    fail("usage: keychain-secret-service (no arguments; it serves the session bus of DBUS_SESSION_BUS_ADDRESS)",
         status: 2)
}
do throws(StartFailure) {
    let provider = try SecretServiceProvider()
    try provider.start()
    // One line when the name is owned, so that a script or test can wait for it.
    say("serving \(SecretServiceProvider.busName) for the keychain \(provider.keychainPath)", to: 1)
    try provider.run()
    say("the session bus closed", to: 2)
    exit(0)
} catch {
    fail(error.message)
}
