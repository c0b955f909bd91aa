import Foundation
import GRDB

/// SQLite's own verdict on a database file: `PRAGMA integrity_check` on a connection of
/// our own, which reads every page, index and constraint. "ok" when the file is sound.
public enum IntegrityCheck {
    public static func run(database: URL) -> String {
        do {
            let queue = try DatabaseQueue(path: database.path)
            defer { try? queue.close() }
            let lines = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            return lines.joined(separator: "; ")
        } catch {
            return "cannot check: \(error)"
        }
    }
}
