import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Bad input gets a D-Bus error with a clear message, and the provider keeps serving.
@Suite struct ProviderRobustnessTests {
    static let service = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"

    /// Refusal: a second provider does not take the name from the first, and says who has it.
    @Test func aSecondProviderRefusesToStartAndNamesTheOwner() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let second = try bus.run(ProgramProcess("keychain-secret-service").executable.path, [])
            #expect(second.status == 1)
            let first = bus.providers.first?.pid ?? 0
            #expect(second.errors.hasPrefix("keychain-secret-service: org.freedesktop.secrets is already owned by :"),
                    "\(second.errors)")
            #expect(second.errors.contains("(pid \(first), keychain-secret"), "\(second.errors)")
            // The first still serves.
            #expect(bus.providerIsRunning)
            #expect(try bus.secretTool("store", "--label", "L", "service", "first", input: "one").status == 0)
        }
    }

    /// sd-bus checks every call's signature against the interface: a wrong one is InvalidArgs.
    @Test func aCallWithTheWrongSignatureIsInvalidArgsAndTheProviderStaysUp() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let wrong = try bus.call(Self.service, Self.serviceInterface, "OpenSession", "s", "plain")
            #expect(wrong.status != 0)
            #expect(wrong.errors.contains("Invalid arguments"), "\(wrong.errors)")
            let dbusSend = try bus.run("/usr/bin/dbus-send", [
                "--session", "--print-reply", "--dest=org.freedesktop.secrets", Self.service,
                "\(Self.serviceInterface).SearchItems", "string:service"])
            #expect(dbusSend.status != 0)
            #expect(dbusSend.errors.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(dbusSend.errors)")
            #expect(bus.providerIsRunning)
            #expect(try bus.secretTool("store", "--label", "L", "service", "up", input: "still").status == 0)
            #expect(try bus.secretTool("lookup", "service", "up").output == "still")
        }
    }

    /// NoSuchObject for an item path that names no item, also one no item could have (not a
    /// reference's spelling): a missing object is one error whatever its path; UnknownObject
    /// (sd-bus's) for a path outside the provider's collections.
    @Test func missingItemsAreNoSuchObject() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            // A generic password's reference ("genp" and a UUID) that no item has.
            let missing = "/org/freedesktop/secrets/collection/login/67656e70" + String(repeating: "0", count: 32)
            let delete = try bus.call(missing, "org.freedesktop.Secret.Item", "Delete")
            #expect(delete.status != 0)
            #expect(delete.errors.contains("no such object"), "\(delete.errors)")
            let label = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", missing,
                                                        "org.freedesktop.Secret.Item", "Label"])
            #expect(label.status != 0)
            #expect(label.errors.contains("no such object"), "\(label.errors)")
            for malformed in ["xyz", String(repeating: "0", count: 40), "67656E70" + String(repeating: "0", count: 32)] {
                let call = try bus.call("/org/freedesktop/secrets/collection/login/" + malformed, "org.freedesktop.Secret.Item",
                                        "Delete")
                #expect(call.status != 0)
                #expect(call.errors.contains("no such object"), "\(call.errors)")
            }
            let outside = try bus.call("/org/freedesktop/secrets/other", "org.freedesktop.Secret.Item", "Delete")
            #expect(outside.errors.contains("Unknown object"), "\(outside.errors)")
            #expect(bus.providerIsRunning)
        }
    }

    /// Sessions: secrets travel only in a session the caller opened; an algorithm other than
    /// plain and dh-ietf1024-sha256-aes128-cbc-pkcs7 is NotSupported, and a dh public key
    /// outside 2...p-2 is refused.
    @Test func secretsNeedAnOpenSessionOfTheCaller() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(try bus.secretTool("store", "--label", "L", "service", "s", input: "pw").status == 0)
            let search = try bus.call(Self.service, Self.serviceInterface, "SearchItems", "a{ss}", "1", "service", "s")
            let path = search.output.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
            #expect(path.hasPrefix("/org/freedesktop/secrets/collection/login/"), "\(search.output)")
            let noSession = try bus.call(Self.service, Self.serviceInterface, "GetSecrets", "aoo", "1", path,
                                         "/org/freedesktop/secrets/session/1")
            #expect(noSession.status != 0)
            #expect(noSession.errors.contains("no open session"), "\(noSession.errors)")
            let other = try bus.call(Self.service, Self.serviceInterface, "OpenSession", "sv", "dh-ietf2048-sha256-aes256",
                                     "ay", "1", "5")
            #expect(other.status != 0)
            #expect(other.errors.contains("not supported"), "\(other.errors)")
            // RFC 2409's 1024-bit prime p; its last byte, FF, is made FE for p-1 and FD for p-2.
            let prime = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
                + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
                + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF"
            let primeBytes = stride(from: 0, to: prime.count, by: 2).map { offset in
                String(UInt8(prime.dropFirst(offset).prefix(2), radix: 16) ?? 0)
            }
            func openSession(_ key: [String]) throws -> ProgramProcess.Outcome {
                try bus.run("/usr/bin/busctl", ["--user", "call", "org.freedesktop.secrets", Self.service,
                                                Self.serviceInterface, "OpenSession", "sv",
                                                "dh-ietf1024-sha256-aes128-cbc-pkcs7", "ay", String(key.count)] + key)
            }
            for key in [["0"], ["1"], primeBytes.dropLast() + ["254"], primeBytes] {
                let weak = try openSession(key)
                #expect(weak.status != 0)
                #expect(weak.errors.contains("out of range"), "\(weak.errors)")
            }
            let highest = try openSession(primeBytes.dropLast() + ["253"])
            #expect(highest.status == 0, "\(highest.errors)")
            #expect(highest.output.hasPrefix("vo ay 128 "), "\(highest.output)")
            // The item's properties, read through org.freedesktop.DBus.Properties.
            let attributes = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets", path,
                                                             "org.freedesktop.Secret.Item", "Attributes"])
            #expect(attributes.output == "a{ss} 1 \"service\" \"s\"\n", "\(attributes.errors)")
        }
    }

    /// Security: a caller of another user is refused (AccessDenied), even on a bus that
    /// admits every user; the provider's own user is served on the same bus.
    @Test(.enabled(if: geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "only root can call as another user"))
    func callsFromAnotherUserAreRefused() throws {
        try withProvider(admittingEveryUser: true) { (bus: PrivateSessionBus) throws in
            let call = ["call", "org.freedesktop.secrets", Self.service, Self.serviceInterface, "SearchItems", "a{ss}", "0"]
            let own = try bus.run("/usr/bin/busctl", ["--address=\(bus.address)"] + call)
            #expect(own.status == 0, "\(own.errors)")
            #expect(own.output == "aoao 0 0\n")
            // nobody (65534), through setpriv, connects and calls; dbus-send prints the error's
            // name and message.
            let other = try bus.run("/usr/bin/setpriv", [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/dbus-send", "--bus=\(bus.address)",
                "--print-reply", "--dest=org.freedesktop.secrets", Self.service, "\(Self.serviceInterface).SearchItems",
                "dict:string:string:service,S"])
            #expect(other.status != 0)
            #expect(other.errors.contains("org.freedesktop.DBus.Error.AccessDenied: only user \(geteuid()), who runs this Secret Service provider, may use it"),
                    "\(other.errors)")
            #expect(bus.providerIsRunning)
        }
    }

    /// Secrets never appear in logs or errors: a refused call's error does not echo the
    /// secret it carried, and the provider writes nothing to standard error while it serves
    /// stores, lookups and refused calls.
    @Test func secretsAppearInNoErrorAndNoOutput() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            let secret = "Tr0ub4dor-secret-marker"
            #expect(try bus.secretTool("store", "--label", "L", "service", "quiet", input: secret).status == 0)
            #expect(try bus.secretTool("lookup", "service", "quiet").output == secret)
            let bytes = Array(secret.utf8).map(String.init)
            let refused = try bus.call(
                "/org/freedesktop/secrets/collection/login", "org.freedesktop.Secret.Collection", "CreateItem",
                ["a{sv}(oayays)b", "0", "/org/freedesktop/secrets/session/99", "0", String(bytes.count)] + bytes
                    + ["text/plain", "true"])
            #expect(refused.status != 0)
            #expect(refused.errors.contains("no open session of this client"), "\(refused.errors)")
            #expect(!refused.errors.contains(secret))
            #expect(try bus.providerErrors() == "")
        }
    }

    /// When the session bus goes away (the login session ended), the provider ends too,
    /// with status 0 and a line saying why, rather than as a failure.
    @Test func theProviderEndsCleanlyWithItsBus() throws {
        try withProvider { (bus: PrivateSessionBus) throws in
            #expect(bus.stopBusOnly() == 0)
            #expect(try bus.providerErrors() == "keychain-secret-service: the session bus closed\n")
        }
    }
}
