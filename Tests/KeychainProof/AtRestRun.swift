import Foundation
import Security

/// Secrets at rest (issue 3, scope 5): items whose secret and every searched or shown
/// attribute carry random markers, some updated and some deleted, then every file of the
/// keychain folder (database, WAL, shared memory, key, lock) searched for any marker.
///
/// Runs against the keychain the current `KeychainEnvironment` names.
public struct AtRestRun {
    public var items = 300
    public var seed: UInt64 = 1

    public init() {}

    public struct Outcome {
        public var problems: [String] = []
        public var markers = 0
        public var files: [String: Int] = [:]
        public var passed: Bool { problems.isEmpty && markers > 0 && !files.isEmpty }
        public var totals: String {
            let sizes = files.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) B" }.joined(separator: ", ")
            return "\(markers) markers stored; files searched: \(sizes)"
        }
    }

    public func run(folder: URL) -> Outcome {
        var markers = Markers(seed: seed)
        var outcome = Outcome()
        for index in 0..<items {
            let internet = index % 3 == 2
            var item: [String: Any] = [
                kSecClass as String: internet ? kSecClassInternetPassword : kSecClassGenericPassword,
                kSecAttrAccount as String: markers.make(),
                (internet ? kSecAttrServer : kSecAttrService) as String: markers.make(),
                kSecAttrLabel as String: markers.make(),
                kSecAttrComment as String: markers.make(),
                kSecAttrDescription as String: markers.make(),
                kSecValueData as String: Data(markers.make().utf8),
            ]
            if !internet { item[kSecAttrGeneric as String] = Data(markers.make().utf8) }
            let status = SecItemAdd(item as CFDictionary, nil)
            if status != errSecSuccess { outcome.problems.append("add \(index) gave \(status)") }
            // Every tenth item gets a new secret and label, every twentieth is deleted, so
            // that the files hold rewritten and freed pages too.
            let key = item.filter { [kSecClass, kSecAttrAccount, kSecAttrService, kSecAttrServer].map { $0 as String }.contains($0.key) }
            if index % 10 == 0 {
                let changes: [String: Any] = [kSecValueData as String: Data(markers.make().utf8), kSecAttrLabel as String: markers.make()]
                let updated = SecItemUpdate(key as CFDictionary, changes as CFDictionary)
                if updated != errSecSuccess { outcome.problems.append("update \(index) gave \(updated)") }
            } else if index % 20 == 5 {
                let deleted = SecItemDelete(key as CFDictionary)
                if deleted != errSecSuccess { outcome.problems.append("delete \(index) gave \(deleted)") }
            }
        }
        outcome.markers = markers.all.count
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files {
            guard let bytes = try? Data(contentsOf: file) else {
                outcome.problems.append("cannot read \(file.lastPathComponent)")
                continue
            }
            outcome.files[file.lastPathComponent] = bytes.count
            let found = markers.found(in: bytes)
            if !found.isEmpty {
                outcome.problems.append("\(file.lastPathComponent) holds \(found.count) markers, e.g. \(found[0])")
            }
        }
        if !outcome.files.keys.contains(where: { $0.hasSuffix("-wal") }) {
            outcome.problems.append("no WAL was searched")
        }
        return outcome
    }
}
