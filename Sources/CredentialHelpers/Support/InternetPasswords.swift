import Foundation
import Security

/// An internet password found in the keychain.
package struct FoundPassword {
    /// The attributes, by their `kSecAttr*` keys.
    package let attributes: [String: Any]
    /// The secret, when it was asked for.
    package let data: Data?
    /// The persistent reference, which names this one item for a change or a delete.
    package let reference: Data

    /// The account (`kSecAttrAccount`), empty when the item has none.
    package var account: String { attributes[kSecAttrAccount as String] as? String ?? "" }

    /// Whether the item's port and path are exactly these, no port being 0 and no path "".
    /// A search that names no port or path matches items of every port and path; an item
    /// for `host` alone must not be taken for one for `host:5000` or `host/repo`.
    package func has(port: Int?, path: String?) -> Bool {
        let itemPath = attributes[kSecAttrPath as String] as? String ?? ""
        return has(port: port) && itemPath == (path ?? "")
    }

    /// Whether the item's port is exactly `port`, no port being 0. A search that names no
    /// port matches items of every port, and git's host includes its port: a credential for
    /// `host:8443` must not be taken for one for `host`.
    package func has(port: Int?) -> Bool {
        ((attributes[kSecAttrPort as String] as? NSNumber)?.intValue ?? 0) == (port ?? 0)
    }
}

/// The Keychain Services calls both credential helpers make, on internet passwords of the
/// default keychain, through the public `SecItem` API. A failing status becomes a
/// ``HelperFailure`` that names the call.
package enum InternetPasswords {
    /// Every internet password that `attributes` match, in insertion order, with its secret
    /// when `withData`; none is an empty list.
    package static func find(_ attributes: [String: Any], withData: Bool = true) throws(HelperFailure) -> [FoundPassword] {
        var query = attributes
        query[kSecClass as String] = kSecClassInternetPassword
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnAttributes as String] = true
        query[kSecReturnData as String] = withData
        query[kSecReturnPersistentRef as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw .status(status, during: "SecItemCopyMatching") }
        guard let entries = result as? [[String: Any]] else { throw .status(errSecDecode, during: "SecItemCopyMatching") }
        return try entries.map { entry throws(HelperFailure) in
            // An item whose secret is empty (git's `password=`) has no `v_Data` key at all,
            // as on Apple platforms: its secret is then empty, not missing.
            let data = withData ? (entry[kSecValueData as String] as? Data ?? Data()) : nil
            guard let reference = entry[kSecValuePersistentRef as String] as? Data
            else { throw .status(errSecDecode, during: "SecItemCopyMatching") }
            return FoundPassword(attributes: entry, data: data, reference: reference)
        }
    }

    /// Adds an internet password with `attributes` and the secret `data`; false when an item
    /// with the same primary key is already there.
    package static func add(_ attributes: [String: Any], data: Data) throws(HelperFailure) -> Bool {
        var item = attributes
        item[kSecClass as String] = kSecClassInternetPassword
        item[kSecValueData as String] = data
        let status = SecItemAdd(item as CFDictionary, nil)
        if status == errSecDuplicateItem { return false }
        guard status == errSecSuccess else { throw .status(status, during: "SecItemAdd") }
        return true
    }

    /// Changes the one item that `reference` names: in one call, so that it is changed
    /// whole or not at all.
    package static func update(_ reference: Data, with changes: [String: Any]) throws(HelperFailure) {
        let status = SecItemUpdate(query(naming: reference) as CFDictionary, changes as CFDictionary)
        guard status == errSecSuccess else { throw .status(status, during: "SecItemUpdate") }
    }

    /// Deletes the one item that `reference` names; one deleted meanwhile is no error.
    package static func delete(_ reference: Data) throws(HelperFailure) {
        let status = SecItemDelete(query(naming: reference) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .status(status, during: "SecItemDelete") }
    }

    private static func query(naming reference: Data) -> [String: Any] {
        [kSecClass as String: kSecClassInternetPassword, kSecValuePersistentRef as String: reference]
    }
}
