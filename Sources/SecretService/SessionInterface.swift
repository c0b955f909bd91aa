/// `org.freedesktop.Secret.Session` at `/org/freedesktop/secrets/session/<n>`.
extension SecretServiceProvider {
    func sessionMethod(_ member: String, _ number: UInt64, _ request: Request) throws(BusFailure) {
        guard member == "Close" else { throw .notSupported("org.freedesktop.Secret.Session has no method \(member)") }
        guard sessions.exists(number) else { throw .noSuchObject(SecretObject.session(number: number).path) }
        try sessions.close(number, by: request.sender)
        try reply(to: request) { _ throws(BusFailure) in }
    }
}
