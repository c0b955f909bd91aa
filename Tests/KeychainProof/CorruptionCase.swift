import Foundation
import GRDB

/// One way of damaging a keychain's files (issue 3, scope 4), applied to a fresh copy.
public enum CorruptionCase: Sendable, CustomStringConvertible {
    /// The database file cut to this many bytes (its WAL kept).
    case truncateDatabase(Int)
    /// The WAL cut to this many bytes (the database file kept).
    case truncateLog(Int)
    /// The device key file removed.
    case deleteDeviceKey
    /// The device key file cut to this many bytes.
    case truncateDeviceKey(Int)
    /// A wrapped class key replaced by a value of another type, as a damaged page can hold.
    case damageKeybag

    public var description: String {
        switch self {
        case .truncateDatabase(let length): "database cut to \(length) bytes"
        case .truncateLog(let length): "WAL cut to \(length) bytes"
        case .deleteDeviceKey: "device key deleted"
        case .truncateDeviceKey(let length): "device key cut to \(length) bytes"
        case .damageKeybag: "a wrapped key replaced by a number"
        }
    }

    /// Lengths that matter to SQLite: inside the 100-byte header, page and frame
    /// boundaries and a little past them, halves, and one byte or one page short.
    public static func standard(databaseSize: Int, logSize: Int, pageSize: Int) -> [CorruptionCase] {
        let frame = 24 + pageSize
        let database = [0, 50, 100, pageSize, pageSize + 1, 2 * pageSize, databaseSize / 2,
                        databaseSize - pageSize, databaseSize - 1]
        let log = [0, 16, 32, 32 + frame, 32 + frame + 100, 32 + 3 * frame, logSize / 2,
                   logSize - frame, logSize - 1]
        return Set(database.filter { $0 >= 0 && $0 < databaseSize }).sorted().map { .truncateDatabase($0) }
            + Set(log.filter { $0 >= 0 && $0 < logSize }).sorted().map { .truncateLog($0) }
            + [.deleteDeviceKey, .truncateDeviceKey(0), .truncateDeviceKey(16), .damageKeybag]
    }

    func apply(to folder: URL, name: String = "login") throws {
        switch self {
        case .truncateDatabase(let length): try truncate(folder.appendingPathComponent("\(name).keychain-db"), to: length)
        case .truncateLog(let length): try truncate(folder.appendingPathComponent("\(name).keychain-db-wal"), to: length)
        case .deleteDeviceKey: try FileManager.default.removeItem(at: folder.appendingPathComponent("\(name).keychain-key"))
        case .truncateDeviceKey(let length): try truncate(folder.appendingPathComponent("\(name).keychain-key"), to: length)
        case .damageKeybag:
            let queue = try DatabaseQueue(path: folder.appendingPathComponent("\(name).keychain-db").path)
            try queue.write { try $0.execute(sql: "UPDATE keybag SET wrapped = 42 WHERE rowid = (SELECT min(rowid) FROM keybag)") }
            try queue.close()
        }
    }

    private func truncate(_ file: URL, to length: Int) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(length))
        try handle.close()
    }
}
