import PostgresNIO

extension PostgresConnection {
    /// How long a close is waited for before it is left to finish on its own.
    static let closeLimit: Duration = .seconds(5)

    /// Closes the connection, waiting for it at most ``closeLimit``. A close whose channel does
    /// not report the end (a server killed in the middle of an exchange) must not hold the
    /// caller: the server's calls run one at a time, so one stuck close would stop every
    /// later call of the agent.
    func closeWithinLimit() async {
        try? await withTimeout(Self.closeLimit) { try await self.close() }
    }
}
