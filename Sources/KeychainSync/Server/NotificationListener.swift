import PostgresNIO

/// A connection of its own that LISTENs on one group's channel and yields to a stream on
/// every notification, and once each time it is (re)established: a caller then re-reads
/// what it may have missed while it was away. Reconnects with ``ReconnectBackoff`` until
/// stopped.
struct NotificationListener: Sendable {
    private let task: Task<Void, Never>
    private let continuation: AsyncStream<Void>.Continuation

    init(connector: SyncServerConnector, channel: String, continuation: AsyncStream<Void>.Continuation, logger: Logger) {
        self.continuation = continuation
        task = Task {
            await Self.listen(connector: connector, channel: channel, continuation: continuation, logger: logger)
        }
    }

    /// Ends the stream and closes the listening connection.
    func stop() {
        task.cancel()
        continuation.finish()
    }

    private static func listen(
        connector: SyncServerConnector, channel: String, continuation: AsyncStream<Void>.Continuation, logger: Logger
    ) async {
        var backoff = ReconnectBackoff()
        while !Task.isCancelled {
            do {
                let connection = try await connector.connect()
                do {
                    try await withTaskCancellationHandler {
                        try await connection.listen(on: channel) { notifications in
                            // Listening from here on: anything committed before may have been missed.
                            backoff.reset()
                            continuation.yield()
                            for try await _ in notifications {
                                continuation.yield()
                            }
                        }
                    } onCancel: {
                        let _: EventLoopFuture<Void> = connection.close()
                    }
                } catch {
                    logger.debug("Sync server notifications interrupted", metadata: ["reason": "\(SyncServerError(error))"])
                }
                try? await connection.close()
            } catch {
                logger.debug("Sync server unreachable for notifications", metadata: ["reason": "\(error)"])
            }
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: backoff.next())
        }
        continuation.finish()
    }
}
