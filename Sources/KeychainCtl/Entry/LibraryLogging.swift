import Foundation
import Logging

/// What the library's own log lines show on keychainctl's standard error.
///
/// The library logs a failure at error level with its reason, for programs whose only other
/// account of it is a status code. keychainctl reports every failure itself, with that
/// reason, as `security` does, so the library's error lines would say it twice: they are
/// left out. Its warnings stay (advice the tool has no other way to give, such as a changed
/// machine id). `KEYCHAINCTL_LOG_LEVEL` (`trace`, `debug`, `info`, `notice`, `warning`,
/// `error`, `critical`) shows every line from that level up, errors included, for a user
/// chasing a problem.
enum LibraryLogging {
    static let environmentVariable = "KEYCHAINCTL_LOG_LEVEL"

    static func bootstrap() {
        let chosen = getenv(environmentVariable).flatMap { Logger.Level(rawValue: String(cString: $0)) }
        LoggingSystem.bootstrap { label in
            var stream = StreamLogHandler.standardError(label: label)
            stream.logLevel = chosen ?? .warning
            return ToolLogHandler(stream: stream, showsErrors: chosen != nil)
        }
    }
}

/// Standard error's log handler, without the error lines unless asked for.
struct ToolLogHandler: LogHandler {
    var stream: StreamLogHandler
    let showsErrors: Bool

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard showsErrors || event.level < .error else { return }
        stream.log(event: event)
    }
}
