import Foundation
import Logging
import Synchronization

/// A swift-log handler that keeps every message, with its metadata and source, at any
/// level down to trace, so that a process can check what the library would have logged.
public struct LogCapture: LogHandler {
    public static let lines = Mutex<[String]>([])

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace
    let label: String

    public init(label: String) {
        self.label = label
    }

    /// Installs the handler for the whole process; call before the library logs.
    public static func install() {
        LoggingSystem.bootstrap { LogCapture(label: $0) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let error = event.error.map { " error: \($0)" } ?? ""
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let text = "\(event.level) \(label) [\(event.source)] \(event.message) \(fields)\(error)"
        Self.lines.withLock { $0.append(text) }
    }
}
