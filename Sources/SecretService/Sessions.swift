/// The open Secret Service sessions, each belonging to the client (unique bus name) that
/// opened it: only that client may use or close it, and its sessions close when it leaves
/// the bus. Only the `plain` algorithm is offered, so a session holds no key.
struct Sessions {
    private var owners: [UInt64: String] = [:]
    private var nextNumber: UInt64 = 1

    /// Opens a session for `owner`; its object.
    mutating func open(for owner: String) throws(BusFailure) -> SecretObject {
        guard owners.count < Limits.sessions else {
            throw .failed("too many open sessions (\(Limits.sessions)); close some first")
        }
        guard owners.values.count(where: { $0 == owner }) < Limits.sessionsPerClient else {
            throw .failed("this client has \(Limits.sessionsPerClient) open sessions; close some first")
        }
        let number = nextNumber
        nextNumber += 1
        owners[number] = owner
        return .session(number: number)
    }

    /// Checks that `path` is a session `client` opened and has not closed.
    func check(_ path: String, by client: String) throws(BusFailure) {
        guard case .session(let number)? = SecretObject(path: path), owners[number] == client else {
            throw .noSession(path)
        }
    }

    /// Closes the session `number` of `client`.
    mutating func close(_ number: UInt64, by client: String) throws(BusFailure) {
        guard owners[number] == client else { throw .noSession(SecretObject.session(number: number).path) }
        owners[number] = nil
    }

    /// Closes every session of a client that left the bus.
    mutating func closeAll(of client: String) {
        owners = owners.filter { $0.value != client }
    }

    func exists(_ number: UInt64) -> Bool { owners[number] != nil }
}
