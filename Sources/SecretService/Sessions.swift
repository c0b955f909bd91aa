/// The open Secret Service sessions, each belonging to the client (unique bus name) that
/// opened it: only that client may use or close it, and its sessions close when it leaves
/// the bus. A session holds how its secrets travel (``SessionTransport``).
struct Sessions {
    private var open = ClientObjects<SessionTransport>(
        limit: Limits.sessions, limitPerClient: Limits.sessionsPerClient, noun: "open sessions", remedy: "close some first")

    /// Opens a session for `owner`; its object.
    mutating func open(for owner: String, transport: SessionTransport) throws(BusFailure) -> SecretObject {
        .session(number: try open.add(transport, for: owner))
    }

    /// The transport of the session at `path`, which `client` must have opened and not closed.
    func transport(of path: String, for client: String) throws(BusFailure) -> SessionTransport {
        guard case .session(let number)? = SecretObject(path: path), let transport = open.value(number, of: client) else {
            throw .noSession(path)
        }
        return transport
    }

    /// Closes the session `number` of `client`.
    mutating func close(_ number: UInt64, by client: String) throws(BusFailure) {
        guard open.value(number, of: client) != nil else { throw .noSession(SecretObject.session(number: number).path) }
        _ = open.remove(number)
    }

    /// Closes every session of a client that left the bus.
    mutating func closeAll(of client: String) {
        _ = open.removeAll(of: client)
    }

    func exists(_ number: UInt64) -> Bool { open.exists(number) }
}
