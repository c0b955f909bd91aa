import Foundation
import KeychainCore
import Security
import SecItemFuzzing

/// The query parser and the four SecItem calls on dictionaries built from the fuzzer's
/// bytes: keys from the kSec constants, near misses and noise; values of every type the API
/// takes (strings, Data, numbers, booleans, dates, arrays, dictionaries, keychains) and of
/// types it does not, most often on top of a plausible query. Every dictionary goes through the parser for all four calls, then up to
/// four calls run against the sandbox's keychain. A crash, a hang or a status Apple's API
/// does not give for the call (``FuzzRun/allowed``) is a bug; the items an input added are
/// deleted after it.
enum QueryParserTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzBytes(bytes)
        FuzzSandbox.run {
            var added = false
            for _ in 0..<(1 + input.choice(4)) where !input.isAtEnd {
                let call = FuzzRun.Call.allCases[input.choice(FuzzRun.Call.allCases.count)]
                let query = dictionary(&input, depth: 0, startingFrom: plausibleQuery(&input, for: call))
                let changes = call == .update ? dictionary(&input, depth: 0) : [:]
                parseForEveryCall(query, changes: changes)
                let status = perform(call, query, changes: changes, wantsResult: input.bool())
                if call == .add && status == errSecSuccess { added = true }
            }
            if added { deleteEveryItem() }
        }
    }

    /// The parser alone, for every call and every class's changes: it throws or returns,
    /// whatever the dictionary.
    private static func parseForEveryCall(_ query: NSDictionary, changes: NSDictionary) {
        for call in [SecItemCall.add, .copyMatching, .update, .delete] {
            _ = try? QueryParser.parse(query, for: call)
        }
        for itemClass in ItemClass.allCases {
            _ = try? QueryParser.parseChanges(changes, for: itemClass)
        }
    }

    private static func perform(_ call: FuzzRun.Call, _ query: NSDictionary, changes: NSDictionary,
                                wantsResult: Bool) -> OSStatus {
        var result: CFTypeRef?
        let status: OSStatus = switch call {
        case .add: wantsResult ? SecItemAdd(query, &result) : SecItemAdd(query, nil)
        case .copyMatching: wantsResult ? SecItemCopyMatching(query, &result) : SecItemCopyMatching(query, nil)
        case .update: SecItemUpdate(query, changes)
        case .delete: SecItemDelete(query)
        }
        // A failed call leaves its result nil. A kSecUseKeychain naming a keychain
        // the sandbox lacks is errSecNoSuchKeychain, which the API fuzzer never makes.
        let allowed = (FuzzRun.allowed[call] ?? []).union([errSecNoSuchKeychain])
        guard allowed.contains(status) else { fatalError("\(call.rawValue) gave \(status), which Apple's API does not give for it") }
        guard status == errSecSuccess || result == nil else { fatalError("\(call.rawValue) failed with \(status) but set its result") }
        return status
    }

    private static func deleteEveryItem() {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            let status = SecItemDelete([kSecClass: itemClass, kSecAttrSynchronizable: kSecAttrSynchronizableAny] as NSDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                fatalError("cannot delete the items an input added: \(status)")
            }
        }
    }

    /// Most queries start as a real call would (a class, an account and a service or server
    /// from small sets, a secret for an add), so that calls reach the store, find what earlier
    /// calls of the input added and collide with it; the fuzzer's entries come on top.
    private static func plausibleQuery(_ input: inout FuzzBytes, for call: FuzzRun.Call) -> [AnyHashable: Any] {
        guard input.choice(4) != 0 else { return [:] }
        let internet = input.bool()
        var query: [AnyHashable: Any] = [kSecClass: internet ? kSecClassInternetPassword : kSecClassGenericPassword]
        if input.choice(4) != 0 { query[kSecAttrAccount] = ["alice", "bob", ""][input.choice(3)] }
        if input.choice(4) != 0 { query[internet ? kSecAttrServer : kSecAttrService] = ["example.com", "example.org"][input.choice(2)] }
        if call == .add { query[kSecValueData] = Data("secret".utf8) }
        return query
    }

    private static func dictionary(_ input: inout FuzzBytes, depth: Int,
                                   startingFrom entries: [AnyHashable: Any] = [:]) -> NSMutableDictionary {
        let dictionary = NSMutableDictionary(dictionary: entries)
        for _ in 0..<input.choice(9) {
            // Now and then a key that is not a string, which CFDictionaries can hold.
            let key: AnyHashable = input.choice(32) == 0 ? AnyHashable(NSNumber(value: input.byte())) : AnyHashable(self.key(&input))
            dictionary[key] = value(&input, depth: depth)
        }
        return dictionary
    }

    /// A constant most of the time, so that dictionaries look like queries; else a near miss.
    private static func key(_ input: inout FuzzBytes) -> String {
        switch input.choice(8) {
        case 0: text(&input)
        case 1: ["m_", "r_", "u_", "v_", "class", "v_Data", "v_PersistentRef", "u_Keychain", "syna"][input.choice(9)]
        default: allConstants[input.choice(allConstants.count)] as String
        }
    }

    private static func text(_ input: inout FuzzBytes) -> String {
        String(decoding: input.run(), as: UTF8.self)
    }

    private static func value(_ input: inout FuzzBytes, depth: Int) -> Any {
        switch input.choice(20) {
        case 0, 1, 2: return text(&input)
        case 3, 4: return Data(input.run())
        case 5: return Int(Int8(bitPattern: input.byte()))
        case 6: return Int64(bitPattern: input.uint64())
        case 7: return Double(bitPattern: input.uint64())
        case 8: return input.bool()
        case 9: return input.bool() ? kCFBooleanTrue as Any : kCFBooleanFalse as Any
        case 10: return NSNull()
        case 11: return Date(timeIntervalSinceReferenceDate: Double(bitPattern: input.uint64()))
        case 12, 13: return allConstants[input.choice(allConstants.count)]
        case 14: return NSNumber(value: input.uint64())
        case 15:
            guard depth < 3 else { return NSNull() }
            return (0..<input.choice(4)).map { _ in value(&input, depth: depth + 1) }
        case 16:
            guard depth < 3 else { return NSNull() }
            return dictionary(&input, depth: depth + 1)
        case 17:
            // kSecUseKeychain: the default keychain, or one the sandbox may not have.
            return input.bool() ? SecKeychain(files: KeychainEnvironment.current.files) : SecKeychain(path: text(&input).replacingOccurrences(of: "/", with: "_"))
        case 18:
            // Large values, up to 64 KiB, as secrets and attributes can be.
            let count = Int(input.byte()) << 8
            return input.bool() ? Data(repeating: input.byte(), count: count) as Any : String(repeating: "x", count: count) as Any
        default:
            // A 20-byte persistent reference, or a near miss of one.
            return Data(input.run().prefix(24))
        }
    }
}
