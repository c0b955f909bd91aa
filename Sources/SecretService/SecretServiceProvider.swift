import CSDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Secret Service provider: owns `org.freedesktop.secrets` on the user's session bus and
/// answers the Secret Service API 0.2 over the user's keychains (see ``KeychainItems``).
///
/// Collections are the keychains of the user's keychain folder (``UserKeychains``); the
/// alias `default` is the default keychain, and SetAlias of it makes another keychain the
/// default for every program (SecKeychainSetDefault); the alias `login` is the login keychain.
/// The collection and alias `session` is kept in memory only (``SessionCollection``).
///
/// An item is a generic password: its `service` attribute is the keychain service, and its
/// `account` attribute, else its `username` (Python keyring's name), the keychain account;
/// with both, `account` wins and `username` stays a plain attribute. A search by `account`
/// or `username` searches the account (``ItemAttributes/matches(_:)``), so keychainctl,
/// secret-tool and Python keyring find each other's passwords. The secret's content type is
/// kept with the item (``ItemGenericData``).
///
/// It runs on one thread: sd-bus calls the handlers from ``run()``, one message at a time.
/// Only callers of the user who runs it are served.
public final class SecretServiceProvider {
    /// The well-known name the Secret Service API is reached by.
    public static let busName = "org.freedesktop.secrets"

    let bus: OpaquePointer
    let keychains: UserKeychains
    /// How large a reply of object paths may be.
    let replyLimit: ReplyLimit
    var sessions = Sessions()
    var prompts = Prompts()
    /// What searches showed of locked items (``LockedMatches``).
    var lockedMatches = LockedMatches()
    /// The collection `session`, in memory only.
    let sessionCollection = SessionCollection()
    /// Where prompts asking on their own threads leave their outcome for the bus thread.
    let completions: PromptCompletions
    /// The user of each client (unique name) that called, while it is on the bus: a bus
    /// never gives a unique name twice, so one question to the bus per client is enough.
    private var callerUsers: [String: uid_t] = [:]

    /// Connects to the session bus of `DBUS_SESSION_BUS_ADDRESS`, for the default keychain;
    /// `KEYCHAIN_SECRET_SERVICE_MAX_REPLY_BYTES` may lower how large a reply of object paths
    /// may be (``ReplyLimit``).
    public init() throws(StartFailure) {
        replyLimit = try ReplyLimit(environment: ProcessInfo.processInfo.environment)
        var bus: OpaquePointer?
        let status = sd_bus_open_user(&bus)
        guard status >= 0, let bus else {
            throw StartFailure("cannot connect to the session bus (DBUS_SESSION_BUS_ADDRESS): \(Self.text(status))")
        }
        self.bus = bus
        keychains = .forThisProcess()
        do throws(StartFailure) {
            completions = try PromptCompletions()
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
    }

    deinit {
        sessionCollection.removeAll()
        sd_bus_flush_close_unref(bus)
    }

    /// The default keychain's database, for the provider's start-up line.
    public var keychainPath: String { keychains.defaultItems().keychainPath }

    /// Registers the objects, then takes the bus name; fails with the name's owner when
    /// another process has it.
    public func start() throws(StartFailure) {
        var handlers = keychain_sd_bus_handlers(
            method: { call, context, error in
                guard let call, let context else { return -EINVAL }
                return SecretServiceProvider.of(context).answer(call, error)
            },
            get: { path, interface, property, reply, context, error in
                guard let path, let interface, let property, let reply, let context else { return -EINVAL }
                return SecretServiceProvider.of(context).get(
                    String(cString: path), String(cString: interface), String(cString: property), reply, error)
            },
            set: { path, _, property, value, context, error in
                guard let path, let property, let value, let context else { return -EINVAL }
                return SecretServiceProvider.of(context).set(String(cString: path), String(cString: property), value, error)
            },
            find: { path, interface, context in
                guard let path, let interface, let context else { return 0 }
                return SecretServiceProvider.of(context).has(String(cString: path), String(cString: interface)) ? 1 : 0
            },
            enumerate: { _, context in
                guard let context else { return nil }
                return SecretServiceProvider.mallocStrings(SecretServiceProvider.of(context).objectPaths())
            })
        let context = Unmanaged.passUnretained(self).toOpaque()
        var status = keychain_sd_bus_register_secret_service(bus, SecretObject.servicePath, &handlers, context)
        guard status >= 0 else { throw StartFailure("cannot register the Secret Service objects: \(Self.text(status))") }
        // A client that leaves the bus takes its sessions with it.
        status = sd_bus_match_signal(
            bus, nil, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
            { message, context, _ in
                guard let message, let context else { return 0 }
                SecretServiceProvider.of(context).nameOwnerChanged(message)
                return 0
            }, context)
        guard status >= 0 else { throw StartFailure("cannot follow clients leaving the bus: \(Self.text(status))") }
        status = sd_bus_request_name(bus, Self.busName, 0)
        if status == -EEXIST {
            throw StartFailure("\(Self.busName) is already owned by \(owner(of: Self.busName)) on this session bus; "
                               + "stop that Secret Service provider first")
        }
        guard status >= 0 else { throw StartFailure("cannot own \(Self.busName): \(Self.text(status))") }
    }

    /// Serves calls until the session bus closes (the session ended), then returns; fails
    /// when the connection breaks otherwise. Prompts that finished asking are completed
    /// between calls. SIGTERM, SIGINT and SIGHUP end serving too (``TerminationSignals``).
    public func run() throws(StartFailure) -> ServingEnd {
        // The session collection's secrets are zeroed however serving ends.
        defer { sessionCollection.removeAll() }
        let signals = TerminationSignals.install()
        defer { if let signals { close(signals) } }
        while true {
            let processed = sd_bus_process(bus, nil)
            if processed == -ECONNRESET || processed == -ENOTCONN { return .busClosed }
            if processed < 0 { throw StartFailure("the session bus connection failed: \(Self.text(processed))") }
            if processed > 0 { continue }
            let waited = waitForBusOrPrompts(signals: signals ?? -1)
            if let signals, let number = TerminationSignals.received(on: signals) { return .signalled(number) }
            if waited == -ECONNRESET || waited == -ENOTCONN { return .busClosed }
            if waited < 0 && waited != -EINTR { throw StartFailure("cannot wait for the session bus: \(Self.text(waited))") }
            completeAskedPrompts()
        }
    }

    /// Why ``run()`` returned.
    public enum ServingEnd: Sendable, Equatable {
        /// The session bus closed: the session ended.
        case busClosed
        /// A signal asked the provider to stop (its number).
        case signalled(Int32)
    }

    /// What sd_bus_wait does, with the prompts' wake-up pipe and the termination signals' pipe
    /// (`signals`, -1 for none) polled beside the bus: 0 or a negative errno.
    private func waitForBusOrPrompts(signals: Int32) -> Int32 {
        let descriptor = sd_bus_get_fd(bus)
        guard descriptor >= 0 else { return descriptor }
        let events = sd_bus_get_events(bus)
        guard events >= 0 else { return events }
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0 else { return -EINVAL }
        var timeout: Int32 = -1
        if deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let current = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            timeout = deadline <= current ? 0 : Int32(min((deadline - current + 999) / 1000, UInt64(Int32.max)))
        }
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(events), revents: 0),
            pollfd(fd: completions.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
        ]
        return poll(&descriptors, 3, timeout) < 0 ? -errno : 0
    }

    // MARK: - Dispatch

    static func of(_ context: UnsafeMutableRawPointer) -> SecretServiceProvider {
        Unmanaged<SecretServiceProvider>.fromOpaque(context).takeUnretainedValue()
    }

    /// Whether the object at `path` exists with `interface`: sessions while open, collections
    /// and items whenever the path is well formed (a call on a collection or item that is
    /// gone is NoSuchObject, which clients take for "not there"). Any other path under
    /// `collection/` or `aliases/` is answered the same way, rather than with sd-bus's
    /// UnknownObject, so that a missing collection is one error by either path.
    private func has(_ path: String, _ interface: String) -> Bool {
        guard let object = secretObject(at: path) else {
            let underCollections = path.hasPrefix(SecretObject.collectionPrefix) || path.hasPrefix(SecretObject.aliasPrefix)
            return underCollections && (interface == Self.collectionInterface || interface == Self.itemInterface)
        }
        guard object.interface == interface else { return false }
        if case .session(let number) = object { return sessions.exists(number) }
        if case .prompt(let number) = object { return prompts.exists(number) }
        return true
    }

    /// The paths of the collections and their items, which introspection lists as child nodes
    /// (`busctl tree`), as GNOME Keyring lists them (aliases are other names of these, not
    /// listed). Items of a keychain are listed also while it is locked, as its Items property
    /// lists them.
    private func objectPaths() -> [String] {
        var paths: [String] = []
        for name in keychains.names() {
            paths.append(SecretObject.collectionPath(name))
            // Listing the default keychain's items before its first use would create it.
            guard let items = try? keychains.items(in: name), items.exists,
                  let references = try? items.allReferences() else { continue }
            paths += references.map { items.object($0).path }
        }
        paths.append(SessionCollection.path)
        paths += sessionCollection.references.map { sessionCollection.object($0).path }
        return paths
    }

    /// `strings` as a NULL-terminated array of C strings, each and the array from malloc, as
    /// sd-bus frees them; nil when memory ran out.
    private static func mallocStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let array = malloc((strings.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1) else { return nil }
        for (index, string) in strings.enumerated() {
            guard let copy = strdup(string) else {
                for earlier in 0..<index { free(array[earlier]) }
                free(array)
                return nil
            }
            array[index] = copy
        }
        array[strings.count] = nil
        return array
    }

    /// The object `path` names, aliases set with SetAlias resolved to their collections.
    func secretObject(at path: String) -> SecretObject? {
        SecretObject(path: path) { [keychains] alias in try? keychains.aliases.target(of: alias) }
    }

    /// The items of the collection `name` (nil: the alias `default`); NoSuchObject when its
    /// keychain is not there.
    func keychain(_ name: String?) throws(BusFailure) -> KeychainItems {
        try keychains.items(in: name ?? keychains.defaultName())
    }

    /// Answers a method call: a reply sent and 1, or the error set and negative.
    private func answer(_ call: OpaquePointer, _ errorOut: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        do throws(BusFailure) {
            try checkCaller(call)
            let path = sd_bus_message_get_path(call).map { String(cString: $0) } ?? ""
            let member = sd_bus_message_get_member(call).map { String(cString: $0) } ?? ""
            guard let object = secretObject(at: path) else { throw .noSuchObject(path) }
            let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? ""
            let request = Request(call: call, sender: sender, arguments: MessageReader(message: call))
            switch object {
            case .service: try serviceMethod(member, request)
            case .collection(let name?) where name == SessionCollection.name:
                try sessionCollectionMethod(member, request)
            case .item(let name?, let reference) where name == SessionCollection.name:
                try sessionItemMethod(member, reference, request)
            case .collection(let name): try collectionMethod(member, try keychain(name), request)
            case .item(let name, let reference): try itemMethod(member, try keychain(name), reference, request)
            case .session(let number): try sessionMethod(member, number, request)
            case .prompt(let number): try promptMethod(member, number, request)
            }
            return 1
        } catch {
            return sd_bus_error_set(errorOut, error.name, error.message)
        }
    }

    private func get(_ path: String, _ interface: String, _ property: String, _ reply: OpaquePointer,
                     _ errorOut: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        do throws(BusFailure) {
            // Without a call being answered, sd-bus is reading the value for a PropertiesChanged
            // the provider emits (a prompt's unlock, between calls): no caller to check.
            if let call = sd_bus_get_current_message(bus) { try checkCaller(call) }
            let writer = MessageWriter(message: reply)
            switch secretObject(at: path) {
            case .service?: try serviceProperty(property, writer)
            case .collection(let name?)? where name == SessionCollection.name:
                try sessionCollectionProperty(property, writer)
            case .item(let name?, let reference)? where name == SessionCollection.name:
                try sessionItemProperty(property, reference, writer)
            case .collection(let name)?: try collectionProperty(property, try keychain(name), writer)
            case .item(let name, let reference)?: try itemProperty(property, try keychain(name), reference, writer)
            default: throw .noSuchObject(path)
            }
            return 1
        } catch {
            return sd_bus_error_set(errorOut, error.name, error.message)
        }
    }

    private func set(_ path: String, _ property: String, _ value: OpaquePointer,
                     _ errorOut: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        do throws(BusFailure) {
            guard let call = sd_bus_get_current_message(bus) else { throw .accessDenied("no call to answer") }
            try checkCaller(call)
            switch secretObject(at: path) {
            case .collection(let name?)? where name == SessionCollection.name:
                try setSessionCollectionProperty(property, MessageReader(message: value))
            case .item(let name?, let reference)? where name == SessionCollection.name:
                try setSessionItemProperty(property, reference, MessageReader(message: value))
            case .item(let name, let reference)?:
                try setItemProperty(property, try keychain(name), reference, MessageReader(message: value))
            case .collection(let name)?: try setCollectionProperty(property, try keychain(name), MessageReader(message: value))
            default: throw .noSuchObject(path)
            }
            return 1
        } catch {
            return sd_bus_error_set(errorOut, error.name, error.message)
        }
    }

    /// Refuses a message from any user but the one running the provider. The session bus
    /// normally admits no other user; this holds even on a bus that does.
    private func checkCaller(_ message: OpaquePointer) throws(BusFailure) {
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
        let user: uid_t
        if let sender, let known = callerUsers[sender] {
            user = known
        } else {
            var credentials: OpaquePointer?
            let status = sd_bus_query_sender_creds(message, UInt64(SD_BUS_CREDS_UID) | UInt64(SD_BUS_CREDS_EUID), &credentials)
            defer { sd_bus_creds_unref(credentials) }
            var found: uid_t = 0
            guard status >= 0, let credentials,
                  sd_bus_creds_get_euid(credentials, &found) >= 0 || sd_bus_creds_get_uid(credentials, &found) >= 0
            else { throw .accessDenied("cannot tell which user sent the call") }
            user = found
            if let sender {
                if callerUsers.count >= Limits.knownClients { callerUsers.removeAll() }
                callerUsers[sender] = user
            }
        }
        guard user == geteuid() else {
            throw .accessDenied("only user \(geteuid()), who runs this Secret Service provider, may use it")
        }
    }

    private func nameOwnerChanged(_ message: OpaquePointer) {
        let reader = MessageReader(message: message)
        guard let name = try? reader.string(), (try? reader.string()) != nil, let newOwner = try? reader.string(),
              newOwner.isEmpty else { return }
        sessions.closeAll(of: name)
        prompts.dismissAll(of: name)
        callerUsers[name] = nil
    }

    // MARK: - Replies

    /// A method call being answered.
    struct Request {
        let call: OpaquePointer
        /// The caller's unique bus name.
        let sender: String
        let arguments: MessageReader
    }

    /// Sends the reply to `request` that `build` fills. `sensitive` replies (those holding a
    /// secret) are zeroed by sd-bus when freed.
    func reply(to request: Request, sensitive: Bool = false, _ build: (MessageWriter) throws(BusFailure) -> Void)
        throws(BusFailure)
    {
        var reply: OpaquePointer?
        let made = sd_bus_message_new_method_return(request.call, &reply)
        guard made >= 0, let reply else { throw .failed("cannot build the reply: \(Self.text(made))") }
        defer { sd_bus_message_unref(reply) }
        if sensitive { sd_bus_message_sensitive(reply) }
        try build(MessageWriter(message: reply))
        let sent = sd_bus_send(nil, reply, nil)
        guard sent >= 0 else { throw .failed("cannot send the reply: \(Self.text(sent))") }
    }

    /// Answers `request` with `failure`, for a handler that has more to do after the reply.
    func replyFailure(to request: Request, _ failure: BusFailure) throws(BusFailure) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        sd_bus_error_set(&error, failure.name, failure.message)
        let sent = sd_bus_reply_method_error(request.call, &error)
        guard sent >= 0 else { throw .failed("cannot send the reply: \(Self.text(sent))") }
    }

    /// Emits `member` of `interface` on `path` with one object path argument (ItemCreated and
    /// the like). A signal that cannot be sent is dropped: the call it follows succeeded.
    func emit(_ interface: String, _ member: String, on path: String, argument: String) {
        var signal: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &signal, path, interface, member) >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        guard (try? MessageWriter(message: signal).objectPath(argument)) != nil else { return }
        _ = sd_bus_send(bus, signal, nil)
    }

    /// Emits org.freedesktop.DBus.Properties.PropertiesChanged for `names` of `interface` on
    /// `path`, with their new values, which sd-bus reads through the getters. Dropped when it
    /// cannot be sent (or a value cannot be read), as ``emit(_:_:on:argument:)``.
    func emitPropertiesChanged(_ interface: String, on path: String, _ names: [String]) {
        var strings = names.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        strings.append(nil)
        _ = strings.withUnsafeMutableBufferPointer { buffer in
            sd_bus_emit_properties_changed_strv(bus, path, interface, buffer.baseAddress)
        }
    }

    // MARK: -

    /// Who owns `name`: its unique name, process id and command, as far as the bus tells.
    private func owner(of name: String) -> String {
        var credentials: OpaquePointer?
        // Augmented: the bus tells the process id, /proc its command.
        let mask = UInt64(SD_BUS_CREDS_UNIQUE_NAME) | UInt64(SD_BUS_CREDS_PID) | UInt64(SD_BUS_CREDS_COMM)
            | UInt64(SD_BUS_CREDS_AUGMENT)
        guard sd_bus_get_name_creds(bus, name, mask, &credentials) >= 0, let credentials else { return "another process" }
        defer { sd_bus_creds_unref(credentials) }
        var unique: UnsafePointer<CChar>?
        var pid: pid_t = 0
        var command: UnsafePointer<CChar>?
        var parts: [String] = []
        if sd_bus_creds_get_pid(credentials, &pid) >= 0 { parts.append("pid \(pid)") }
        if sd_bus_creds_get_comm(credentials, &command) >= 0, let command { parts.append(String(cString: command)) }
        let who = sd_bus_creds_get_unique_name(credentials, &unique) >= 0 ? unique.map { String(cString: $0) } : nil
        return "\(who ?? "another process")" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
    }

    static func text(_ status: Int32) -> String {
        String(cString: strerror(-status))
    }
}
