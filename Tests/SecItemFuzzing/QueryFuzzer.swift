import Foundation
import Security
import TestSupport

/// Makes dictionaries for the four SecItem calls: mostly plausible queries with a few
/// things wrong, so that calls get past the first check often enough to reach the store,
/// and sometimes pure noise. Values come in every type a caller could put there: the right
/// one, a wrong one, NSNull, huge, empty, nested, and constants where they do not belong.
public struct QueryFuzzer {
    public var generator: SeededGenerator

    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    private mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &generator) < percent
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }

    nonisolated(unsafe) private static let classes: [CFString] = [
        kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey, kSecClassIdentity,
    ]

    /// Small sets of accounts and services, so that adds collide and searches find things.
    private mutating func smallText() -> String {
        pick(["", "alice", "bob", "ALICE", "example.com", "é", "a\u{0}b", "🔑"])
    }

    /// Any value of any type.
    public mutating func value(depth: Int = 0) -> Any {
        switch Int.random(in: 0..<18, using: &generator) {
        case 0, 1, 2: return smallText()
        case 3: return Data(smallText().utf8)
        case 4: return Int.random(in: -3...3, using: &generator)
        case 5: return pick([Int64.min, Int64.max, Int64(Int32.max) + 1, 0x7074_7468])
        case 6: return Double.random(in: -10...10, using: &generator)
        case 7: return pick([Double.nan, Double.infinity, 1e300, 0.5])
        case 8: return Bool.random(using: &generator)
        case 9: return pick([kCFBooleanTrue as Any, kCFBooleanFalse as Any])
        case 10: return NSNull()
        case 11: return Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator))
        case 12: return pick(allConstants)
        case 13: return String(repeating: "x", count: pick([0, 1, 4, 255, 4_096, 65_536]))
        case 14: return Data(repeating: 0xAB, count: pick([0, 20, 4_096, 65_536]))
        case 15: return depth < 2 ? [value(depth: depth + 1), value(depth: depth + 1)] : "leaf"
        case 16: return depth < 2 ? dictionary(depth: depth + 1) : NSNull()
        default: return NSNumber(value: UInt64.max)
        }
    }

    /// Any key: a constant, a near miss, or noise.
    private mutating func key() -> String {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<6: return pick(allConstants) as String
        case 6: return pick(["acct ", "ACCT", "m_", "r_", "u_", "v_", "m_Bogus", "r_Bogus", "u_Bogus", "v_Bogus"])
        case 7: return String((0..<4).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyz_")) })
        case 8: return ""
        default: return pick(["class", "classes", "genp", "v_Data", "v_PersistentRef"])
        }
    }

    private mutating func dictionary(depth: Int) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &generator) { dictionary[key()] = value(depth: depth) }
        return dictionary
    }

    /// What a dictionary is for, so that clean cases look like real calls.
    public enum Purpose: Sendable {
        case add, search, update, delete, changes
    }

    /// A dictionary for one call: two in five are clean calls that reach the store (they
    /// add, find, change and delete a small set of items, so they also collide), the rest
    /// have something wrong with them.
    public mutating func query(for purpose: Purpose) -> [String: Any] {
        if chance(40) { return clean(for: purpose) }
        if chance(5) { return dictionary(depth: 0) }
        var query = purpose == .changes ? [:] : clean(for: purpose)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: query[key()] = value()
        case 1: query[pick(Array(query.keys) + [kSecClass as String])] = value()
        case 2: for _ in 0..<Int.random(in: 1...3, using: &generator) { query[key()] = value() }
        default:
            query[pick([kSecReturnData, kSecReturnAttributes, kSecReturnPersistentRef, kSecReturnRef, kSecMatchLimit,
                        kSecAttrSynchronizable, kSecAttrAccessGroup, kSecValuePersistentRef, kSecValueData]) as String] = value()
        }
        return query
    }

    private mutating func clean(for purpose: Purpose) -> [String: Any] {
        if purpose == .changes {
            return chance(50) ? [kSecValueData as String: Data(smallText().utf8)] : [kSecAttrLabel as String: smallText()]
        }
        var query: [String: Any] = [:]
        let internet = chance(30)
        query[kSecClass as String] = internet ? kSecClassInternetPassword : kSecClassGenericPassword
        if purpose == .add || chance(70) { query[kSecAttrAccount as String] = pick(["alice", "bob", "carol"]) }
        if purpose == .add || chance(70) {
            query[(internet ? kSecAttrServer : kSecAttrService) as String] = pick(["example.com", "example.org"])
        }
        if chance(10) { query[kSecAttrSynchronizable as String] = pick([kCFBooleanTrue as Any, kSecAttrSynchronizableAny as Any]) }
        if chance(10) { query[kSecAttrAccessGroup as String] = "fuzz.group" }
        switch purpose {
        case .add:
            query[kSecValueData as String] = Data(smallText().utf8)
            if chance(30) { query[kSecReturnPersistentRef as String] = true }
        case .search:
            if chance(60) { query[pick([kSecReturnData, kSecReturnAttributes, kSecReturnPersistentRef]) as String] = true }
            if chance(30) { query[kSecMatchLimit as String] = pick([kSecMatchLimitOne, kSecMatchLimitAll]) }
        case .update, .delete, .changes:
            break
        }
        return query
    }
}
