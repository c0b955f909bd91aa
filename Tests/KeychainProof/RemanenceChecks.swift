import Foundation

/// What must hold in every file of a keychain once a call returns (design, Storage:
/// "no superseded keybag, password row or deleted secret left in any page version of the
/// database or the WAL"), checked as an attacker with a copy of the folder would look:
///
/// (a) while the keychain has a password, no page version holds a class A or C keybag row
///     that opens with the device key (each one found is unwrapped, not judged by its
///     `wrapping` text; rows in freed space are carved out of the bytes too);
/// (b) every version of a class A or C keybag row, and of the `password` row, is the live one;
/// (c) no sealed blob that the call superseded (a deleted item's, an overwritten secret's, a
///     resealed item's) is in any file of the keychain's folder: its first 32 bytes, the AES-GCM nonce
///     and the start of the ciphertext, are searched for byte by byte.
public enum RemanenceChecks {
    public struct Findings: Sendable {
        public var problems: [String] = []
        /// Class A and C keybag row versions examined, and superseded blobs searched for.
        public var keybagVersions = 0
        public var supersededBlobs = 0
        public var pageVersions = 0
    }

    public static func check(name: String, folder: URL, before: KeychainSnapshot, after: KeychainSnapshot,
                             attacker: DeviceKeyAttacker) throws -> Findings {
        var findings = Findings()
        let database = folder.appendingPathComponent(name + ".keychain-db")
        let rows = try RowVersions(database: database)
        findings.pageVersions = rows.pageVersions
        let locked = rows.keybag.filter { DeviceKeyAttacker.lockedClassNames.contains($0.name) }
        findings.keybagVersions = locked.count

        if after.hasPassword {
            let opening = locked.compactMap { row in
                attacker.opening(name: row.name, wrapped: row.wrapped).map { "\(row.location): \(row.name) (\($0))" }
            }
            var carved: [String] = []
            for suffix in [".keychain-db", ".keychain-db-wal"] {
                let file = folder.appendingPathComponent(name + suffix)
                guard let bytes = try? FileBytes.read(file) else { continue }
                carved += attacker.carve(bytes).map { "\(suffix) offset \($0.offset): \($0.name)" }
            }
            if !opening.isEmpty || !carved.isEmpty {
                findings.problems.append(
                    "(a) the keychain has a password, yet \(opening.count) keybag row versions (\(carved.count) carved "
                    + "from the bytes) hold class A/C keys that open with the device key, e.g. \((opening + carved)[0])")
            }
        }

        let staleKeys = locked.filter { $0.wrapped != after.keybag[$0.name]?.wrapped }
        let stalePasswords = rows.passwordRows.filter { $0.value != after.password }
        if !staleKeys.isEmpty || !stalePasswords.isEmpty {
            let example = staleKeys.first.map { "\($0.location): \($0.name)" }
                ?? stalePasswords.first.map { "\($0.location): password" } ?? ""
            findings.problems.append(
                "(b) \(staleKeys.count) superseded class A/C keybag row versions and \(stalePasswords.count) "
                + "superseded password row versions remain, e.g. \(example)")
        }

        let superseded = before.sealedBlobs.subtracting(after.sealedBlobs).filter { $0.count >= 32 }
        findings.supersededBlobs = superseded.count
        // Every file of the folder: the database, its log and shared memory, and any other.
        var files: [(String, [UInt8])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            // A file gone since the listing (another process's temporary file) holds nothing.
            if let bytes = try? FileBytes.read(folder.appendingPathComponent(file)) { files.append((file, bytes)) }
        }
        var remaining: [String: Int] = [:]
        for blob in superseded {
            let slice = Array(blob.prefix(32))
            for (file, bytes) in files where !ByteSearch.offsets(of: slice, in: bytes).isEmpty {
                remaining[file, default: 0] += 1
            }
        }
        if !remaining.isEmpty {
            let where_ = remaining.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
            findings.problems.append("(c) of \(superseded.count) sealed blobs the call superseded, \(where_)")
        }
        return findings
    }
}
