import Foundation
import GRDB
import Security

/// Secrets in output (issue 3, scope 5), run in a fresh process whose log handler is
/// ``LogCapture`` at trace level: calls that succeed and calls that fail in every way the
/// store reports (duplicate, not found, bad parameters, a colliding update, a tampered
/// record, a keychain that cannot open, a missing entitlement, wrong keychain passwords, a
/// locked item), all with markers in the secret, the attributes and the passwords; then every captured log line and every status message is
/// searched for the markers.
///
/// Run it in a keychain of its own: it tampers with the first row. Prints `log-lines N`,
/// `statuses ...`, any `leak ...`, and `PASS` or `FAIL` last.
public enum LogProbe {
    public static func run(items: Int, seed: UInt64) -> Bool {
        var markers = Markers(seed: seed)
        var statuses: [OSStatus] = []
        func record(_ status: OSStatus) { statuses.append(status) }
        func item(_ account: String, _ service: String) -> [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account, kSecAttrService as String: service]
        }
        var keys: [[String: Any]] = []
        for _ in 0..<max(items, 2) {
            let key = item(markers.make(), markers.make())
            keys.append(key)
            var attributes = key
            attributes[kSecAttrLabel as String] = markers.make()
            attributes[kSecAttrComment as String] = markers.make()
            attributes[kSecAttrGeneric as String] = Data(markers.make().utf8)
            attributes[kSecValueData as String] = Data(markers.make().utf8)
            record(SecItemAdd(attributes as CFDictionary, nil))
            // The same again: errSecDuplicateItem.
            record(SecItemAdd(attributes as CFDictionary, nil))
        }
        var result: CFTypeRef?
        record(SecItemCopyMatching(keys[0].merging([kSecReturnData as String: true, kSecReturnAttributes as String: true]) { $1 } as CFDictionary, &result))
        let missing = item(markers.make(), markers.make())
        record(SecItemCopyMatching(missing as CFDictionary, &result))
        record(SecItemUpdate(missing as CFDictionary, [kSecValueData as String: Data(markers.make().utf8)] as CFDictionary))
        record(SecItemDelete(missing as CFDictionary))
        // Giving one item the other's key collides.
        var other = keys[1]
        other[kSecClass as String] = nil
        record(SecItemUpdate(keys[0] as CFDictionary, other as CFDictionary))
        // Values of the wrong type, each carrying a marker.
        record(SecItemAdd(item(markers.make(), markers.make()).merging([kSecAttrLabel as String: [markers.make(): markers.make()]]) { $1 } as CFDictionary, nil))
        record(SecItemAdd(item(markers.make(), markers.make()).merging([kSecValueData as String: markers.make()]) { $1 } as CFDictionary, nil))
        record(SecItemAdd(item(markers.make(), markers.make()).merging([kSecAttrAccount as String: [markers.make()]]) { $1 } as CFDictionary, nil))
        record(SecItemUpdate(keys[0] as CFDictionary, [kSecAttrCreator as String: markers.make()] as CFDictionary))
        record(SecItemCopyMatching(keys[0].merging([kSecMatchLimit as String: markers.make()]) { $1 } as CFDictionary, &result))
        record(SecItemAdd(item(markers.make(), markers.make()).merging([kSecAttrAccessGroup as String: "proof.not-held"]) { $1 } as CFDictionary, nil))
        // Keychain passwords (issue 4): a create, a wrong unlock, a change, a wrong change, and
        // a locked item, each password a marker.
        var locked: SecKeychain?
        let password = Array(markers.make().utf8), wrong = Array(markers.make().utf8), new = Array(markers.make().utf8)
        record(SecKeychainCreate("log-probe-locked", UInt32(password.count), password, false, nil, &locked))
        record(SecItemAdd(item(markers.make(), markers.make()).merging([
            kSecUseKeychain as String: locked as Any, kSecValueData as String: Data(markers.make().utf8),
        ]) { $1 } as CFDictionary, nil))
        record(SecKeychainLock(locked))
        record(SecKeychainUnlock(locked, UInt32(wrong.count), wrong, true))
        record(SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword, kSecUseKeychain as String: locked as Any,
                                    kSecReturnData as String: true] as CFDictionary, &result))
        record(SecKeychainChangePassword(locked, UInt32(wrong.count), wrong, UInt32(new.count), new))
        record(SecKeychainChangePassword(locked, UInt32(password.count), password, UInt32(new.count), new))
        // A tampered record: its secret and attributes no longer open (errSecDecode).
        let database = KeychainEnvironment.current.directory.appendingPathComponent("login.keychain-db")
        if let queue = try? DatabaseQueue(path: database.path) {
            try? queue.write { try $0.execute(sql: "UPDATE item SET secret = zeroblob(40), attributes = zeroblob(60) WHERE id = (SELECT min(id) FROM item)") }
            try? queue.close()
        }
        record(SecItemCopyMatching(keys[0].merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result))
        record(SecItemCopyMatching(keys[0].merging([kSecReturnAttributes as String: true]) { $1 } as CFDictionary, &result))
        record(SecItemUpdate(keys[0] as CFDictionary, [kSecValueData as String: Data(markers.make().utf8)] as CFDictionary))
        // A keychain that cannot be opened: its database is not a database.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("log-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try? Data(repeating: 0x42, count: 8192).write(to: broken.appendingPathComponent("login.keychain-db"))
        // Private, as the library requires, so that what it refuses is the content.
        chmod(broken.appendingPathComponent("login.keychain-db").path, 0o600)
        KeychainEnvironment.withValue(KeychainEnvironment(directory: broken, accessGroups: ["proof.logs"])) {
            record(SecItemAdd(item(markers.make(), markers.make()).merging([kSecValueData as String: Data(markers.make().utf8)]) { $1 } as CFDictionary, nil))
        }
        try? FileManager.default.removeItem(at: broken)

        let lines = LogCapture.lines.withLock { $0 }
        let messages = Set(statuses).map { SecCopyErrorMessageString($0, nil).map { $0 as String } ?? "" }
        var leaks: [String] = []
        for line in lines + messages where !markers.found(in: line).isEmpty {
            leaks.append(line)
        }
        printNow("log-lines \(lines.count)")
        printNow("statuses \(Set(statuses).sorted().map(String.init).joined(separator: ","))")
        for leak in leaks.prefix(10) { printNow("leak \(leak)") }
        // The probe must have reached every failure it is there for, or it proves less.
        let required: Set<OSStatus> = [errSecDuplicateItem, errSecItemNotFound, errSecParam, errSecDecode,
                                       errSecNotAvailable, errSecMissingEntitlement, errSecAuthFailed,
                                       errSecInteractionNotAllowed]
        if !required.isSubset(of: statuses) { printNow("missed statuses \(required.subtracting(statuses).sorted())") }
        let passed = leaks.isEmpty && !lines.isEmpty && required.isSubset(of: statuses)
        printNow(passed ? "PASS" : "FAIL")
        return passed
    }
}
