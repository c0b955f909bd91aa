import Foundation
import TestSupport

/// One record as the server stores it, read back from what an agent pushed: the anchors
/// write the same bytes.
struct StoredRow: Sendable {
    let itemID: Data
    let version: Data
    let isTombstone: Bool
    let record: Data
}

/// A way to write rows into the records table with PostgreSQL's own client (psql, on libpq),
/// in batches of the agent's size, one transaction per batch: what the database does at its
/// own speed, to compare the agent's push with on the same server and table.
enum Anchor: CaseIterable {
    /// What the agent did before: per record an INSERT, then a DELETE of superseded
    /// versions, each waiting for its answer.
    case sequential
    /// The same statements, a batch's sent as one message (psql's `\;`): no wait between them.
    case oneMessage
    /// One multi-row INSERT per batch.
    case multiRow
    /// One COPY per batch.
    case copy

    var label: String {
        switch self {
        case .sequential: "anchor: INSERT + DELETE per record, one after another"
        case .oneMessage: "anchor: the same statements, one message per batch"
        case .multiRow: "anchor: multi-row INSERT per batch"
        case .copy: "anchor: COPY per batch"
        }
    }

    /// The psql script that writes `rows` under `group`, `batch` rows per transaction.
    func script(_ rows: [StoredRow], group: Data, batch: Int) -> String {
        let groupLiteral = sqlBytes(group)
        var script = ""
        script.reserveCapacity(rows.count * 800)
        for start in stride(from: 0, to: rows.count, by: batch) {
            let slice = rows[start..<min(start + batch, rows.count)]
            switch self {
            case .sequential, .oneMessage:
                // psql sends a statement ended by `\;` with the ones after it, in one message.
                let end = self == .oneMessage ? "\\;\n" : ";\n"
                script += "BEGIN" + end
                for row in slice {
                    let item = sqlBytes(row.itemID)
                    script += "INSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record) VALUES ("
                        + "\(groupLiteral), \(item), \(sqlBytes(row.version)), \(row.isTombstone), \(sqlBytes(row.record)))"
                        + " ON CONFLICT (group_id, item_id, version) DO NOTHING" + end
                    script += "DELETE FROM keychain_sync_records AS old WHERE group_id = \(groupLiteral) AND item_id = \(item)"
                        + " AND EXISTS (SELECT 1 FROM keychain_sync_records AS newer WHERE newer.group_id = old.group_id"
                        + " AND newer.item_id = old.item_id AND newer.version > old.version)" + end
                }
                script += "COMMIT;\n"
            case .multiRow:
                script += "BEGIN;\nINSERT INTO keychain_sync_records (group_id, item_id, version, tombstone, record) VALUES\n"
                script += slice.map {
                    "(\(groupLiteral), \(sqlBytes($0.itemID)), \(sqlBytes($0.version)), \($0.isTombstone), \(sqlBytes($0.record)))"
                }.joined(separator: ",\n")
                script += "\nON CONFLICT (group_id, item_id, version) DO NOTHING;\nCOMMIT;\n"
            case .copy:
                // COPY's text format: a backslash is doubled, so bytea's hex form is \\x...
                let group = "\\\\x" + hex(group)
                script += "BEGIN;\nCOPY keychain_sync_records (group_id, item_id, version, tombstone, record) FROM STDIN;\n"
                for row in slice {
                    script += "\(group)\t\\\\x\(hex(row.itemID))\t\\\\x\(hex(row.version))\t\(row.isTombstone ? "t" : "f")"
                        + "\t\\\\x\(hex(row.record))\n"
                }
                script += "\\.\nCOMMIT;\n"
            }
        }
        return script
    }
}

/// `'\x...'::bytea`, bytea's hex input form.
func sqlBytes(_ bytes: Data) -> String {
    "'\\x" + hex(bytes) + "'::bytea"
}

private let hexDigits = Array("0123456789abcdef".utf8)

func hex(_ bytes: Data) -> String {
    var text = [UInt8](repeating: 0, count: bytes.count * 2)
    for (index, byte) in bytes.enumerated() {
        text[2 * index] = hexDigits[Int(byte >> 4)]
        text[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
    }
    return String(decoding: text, as: UTF8.self)
}

/// Runs psql scripts against the benchmark's server over TCP, as any libpq client would.
struct PsqlRunner {
    let psql: String
    let server: PostgresTestServer
    let folder: URL

    init(server: PostgresTestServer, folder: URL) throws {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        guard let found = versions.compactMap(Int.init).sorted().reversed()
            .map({ root.appendingPathComponent("\($0)/bin/psql").path }).first(where: { access($0, X_OK) == 0 }) else {
            throw BenchmarkFailure("no psql in /usr/lib/postgresql/*/bin")
        }
        psql = found
        self.server = server
        self.folder = folder
    }

    /// Runs `script` (from a file) to its end; the seconds from its first statement's start
    /// to its last one's end, as the server's clock tells them: psql's start and connection
    /// are not counted.
    func run(_ script: String) throws -> Double {
        let file = folder.appendingPathComponent("anchor-\(UUID().uuidString).sql")
        let clock = "SELECT extract(epoch FROM clock_timestamp());\n"
        try Data((clock + script + clock).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try SpawnedProcess.runToEnd(psql, [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(server.port)",
            "-U", PostgresTestServer.user, "-d", PostgresTestServer.database, "-f", file.path,
        ], environment: ["PGPASSWORD": server.password, "PATH": "/usr/bin:/bin", "LC_ALL": "C"], outputIn: folder)
        guard result.status == 0 else { throw BenchmarkFailure("psql exited with \(result.status): \(result.errors.prefix(2000))") }
        let times = result.output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard times.count == 2 else { throw BenchmarkFailure("psql printed no start and end times: \(result.output.prefix(500))") }
        return times[1] - times[0]
    }
}
