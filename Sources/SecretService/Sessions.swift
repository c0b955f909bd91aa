/// The open Secret Service sessions, each belonging to the client (unique bus name) that
/// opened it: only that client may use or close it, and its sessions close when it leaves
/// the bus. A session holds how its secrets travel (``SessionTransport``).
struct Sessions {
    private struct Session {
        let owner: String
        let transport: SessionTransport
    }

    private var open: [UInt64: Session] = [:]
    private var nextNumber: UInt64 = 1

    /// Opens a session for `owner`; its object.
    mutating func open(for owner: String, transport: SessionTransport) throws(BusFailure) -> SecretObject {
        guard open.count < Limits.sessions else {
            throw .failed("too many open sessions (\(Limits.sessions)); close some first")
        }
        guard open.values.count(where: { $0.owner == owner }) < Limits.sessionsPerClient else {
            throw .failed("this client has \(Limits.sessionsPerClient) open sessions; close some first")
        }
        let number = nextNumber
        nextNumber += 1
        open[number] = Session(owner: owner, transport: transport)
        return .session(number: number)
    }

    /// The transport of the session at `path`, which `client` must have opened and not closed.
    func transport(of path: String, for client: String) throws(BusFailure) -> SessionTransport {
        guard case .session(let number)? = SecretObject(path: path), let session = open[number], session.owner == client else {
            throw .noSession(path)
        }
        return session.transport
    }

    /// Closes the session `number` of `client`.
    mutating func close(_ number: UInt64, by client: String) throws(BusFailure) {
        guard open[number]?.owner == client else { throw .noSession(SecretObject.session(number: number).path) }
        open[number] = nil
    }

    /// Closes every session of a client that left the bus.
    mutating func closeAll(of client: String) {
        open = open.filter { $0.value.owner != client }
    }

    func exists(_ number: UInt64) -> Bool { open[number] != nil }
}
