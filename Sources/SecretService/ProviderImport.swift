import CSDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Moving in from another Secret Service provider (GNOME Keyring, KWallet's bridge) while it
/// owns `org.freedesktop.secrets`: every item of its default collection is copied into the
/// keychain as this provider stores items (attributes, label, secret; see ``KeychainItems``),
/// an item with exactly the same attributes replaced. Run once before switching providers.
///
/// The secrets travel in a `plain` session on the user's own session bus, as most clients'
/// do; the other provider must have its default collection unlocked.
public struct ProviderImport {
    /// What the import did.
    public struct Report: Sendable {
        /// Items the keychain did not have.
        public var added = 0
        /// Items whose attributes the keychain had: their label and secret replaced.
        public var replaced = 0
        /// Items that could not be stored, with why (no secret in the text).
        public var failures: [String] = []
    }

    private let bus: OpaquePointer
    private let keychain = KeychainItems.forThisProcess()

    /// Connects to the session bus of `DBUS_SESSION_BUS_ADDRESS`.
    public init() throws(StartFailure) {
        var bus: OpaquePointer?
        let status = sd_bus_open_user(&bus)
        guard status >= 0, let bus else {
            throw StartFailure("cannot connect to the session bus (DBUS_SESSION_BUS_ADDRESS): \(SecretServiceProvider.text(status))")
        }
        self.bus = bus
    }

    /// The keychain database items go to, for the report.
    public var keychainPath: String { keychain.keychainPath }

    /// Copies the items; fails, copying nothing, when no provider runs or its default
    /// collection is missing or locked.
    public func run() throws(StartFailure) -> Report {
        defer { sd_bus_flush_close_unref(bus) }
        do throws(BusFailure) {
            let session = try call(SecretObject.servicePath, "org.freedesktop.Secret.Service", "OpenSession") {
                (writer) throws(BusFailure) in
                try writer.string(SessionTransport.plainAlgorithm)
                try writer.open("v", "s")
                try writer.string("")
                try writer.close()
            } read: { (reader) throws(BusFailure) in
                try reader.skip()
                return try reader.objectPath()
            }
            let collection = try call(SecretObject.servicePath, "org.freedesktop.Secret.Service", "ReadAlias") {
                (writer) throws(BusFailure) in try writer.string("default")
            } read: { (reader) throws(BusFailure) in try reader.objectPath() }
            guard collection != SecretObject.none else { throw .failed("the running provider has no default collection") }
            let locked = try property(collection, "org.freedesktop.Secret.Collection", "Locked", "b") {
                (reader) throws(BusFailure) in try reader.boolean()
            }
            guard !locked else {
                throw .failed("the running provider's default collection \(collection) is locked; unlock it first "
                              + "(for GNOME Keyring: log in to the desktop, or open Seahorse)")
            }
            let items = try property(collection, "org.freedesktop.Secret.Collection", "Items", "ao") {
                (reader) throws(BusFailure) in try reader.objectPaths(limit: Limits.pathsPerCall)
            }
            var report = Report()
            for item in items { copy(item, session: session, into: &report) }
            return report
        } catch {
            throw StartFailure("cannot import from the running Secret Service provider: \(error.message)")
        }
    }

    /// Copies one item; a failure is counted, not thrown, so that one bad item stops no other.
    private func copy(_ item: String, session: String, into report: inout Report) {
        do throws(BusFailure) {
            let label = try property(item, "org.freedesktop.Secret.Item", "Label", "s") {
                (reader) throws(BusFailure) in try reader.string()
            }
            let attributes = try property(item, "org.freedesktop.Secret.Item", "Attributes", "a{ss}") {
                (reader) throws(BusFailure) in try reader.attributes()
            }
            var secret = try call(item, "org.freedesktop.Secret.Item", "GetSecret") {
                (writer) throws(BusFailure) in try writer.objectPath(session)
            } read: { (reader) throws(BusFailure) in try TransferredSecret(reading: reader) }
            defer { secret.zero() }
            guard secret.value.count <= Limits.secretBytes else {
                throw .invalidArguments("its secret is larger than \(Limits.secretBytes) bytes")
            }
            var value = try secret.opened(with: .plain)
            defer { value.zero() }
            if let existing = try keychain.search(attributes).first(where: { $0.attributes == attributes }) {
                try keychain.update(existing.reference, known: existing, attributes: attributes, label: label, secret: value,
                                    contentType: secret.contentType)
                report.replaced += 1
            } else {
                _ = try keychain.add(attributes, label: label, secret: value, contentType: secret.contentType)
                report.added += 1
            }
        } catch {
            report.failures.append("\(item): \(error.message)")
        }
    }

    /// Calls `member` on the running provider: `write` fills the arguments, `read` reads the reply.
    private func call<Result>(_ path: String, _ interface: String, _ member: String,
                              write: (MessageWriter) throws(BusFailure) -> Void,
                              read: (MessageReader) throws(BusFailure) -> Result) throws(BusFailure) -> Result {
        var message: OpaquePointer?
        let made = sd_bus_message_new_method_call(bus, &message, SecretServiceProvider.busName, path, interface, member)
        guard made >= 0, let message else { throw .failed("cannot build the call \(member): \(SecretServiceProvider.text(made))") }
        defer { sd_bus_message_unref(message) }
        try write(MessageWriter(message: message))
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let status = sd_bus_call(bus, message, 0, &error, &reply)
        guard status >= 0, let reply else { throw .failed("\(member) failed: \(Self.describe(error, status))") }
        defer { sd_bus_message_unref(reply) }
        _ = sd_bus_message_sensitive(reply)
        return try read(MessageReader(message: reply))
    }

    /// Reads the property `name` (of D-Bus type `type`) of the object at `path`.
    private func property<Result>(_ path: String, _ interface: String, _ name: String, _ type: String,
                                  _ read: (MessageReader) throws(BusFailure) -> Result) throws(BusFailure) -> Result {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let status = sd_bus_get_property(bus, SecretServiceProvider.busName, path, interface, name, &error, &reply, type)
        guard status >= 0, let reply else { throw .failed("cannot read \(name) of \(path): \(Self.describe(error, status))") }
        defer { sd_bus_message_unref(reply) }
        return try read(MessageReader(message: reply))
    }

    private static func describe(_ error: sd_bus_error, _ status: Int32) -> String {
        if let message = error.message { return String(cString: message) }
        if let name = error.name { return String(cString: name) }
        return SecretServiceProvider.text(status)
    }
}
