import Foundation
import Security
import Testing
import TestSupport

/// CFGetTypeID and the `...GetTypeID()` functions: Apple code tells Core Foundation objects
/// apart with `CFGetTypeID(ref) == CFStringGetTypeID()`, and Keychain Services objects with
/// `CFGetTypeID(ref) == SecKeyGetTypeID()`.
@Suite("Core Foundation type identifiers")
struct CFTypeIDTests {
    /// A Keychain Services type as SecKey and the others declare themselves.
    final class KeychainObjectStandIn: CoreFoundationTyped {
        static let coreFoundationTypeID: CFTypeID = 1_000
    }

    @Test("each Core Foundation type has its own identifier, Apple's runtime value")
    func distinctIdentifiers() {
        let identifiers: [CFTypeID] = [
            CFStringGetTypeID(), CFDataGetTypeID(), CFDictionaryGetTypeID(), CFArrayGetTypeID(),
            CFNumberGetTypeID(), CFBooleanGetTypeID(), CFDateGetTypeID(), CFErrorGetTypeID(),
        ]
        #expect(Set(identifiers).count == identifiers.count)
        #expect(!identifiers.contains(0))
        // The values of Apple's CFRuntime_Internal.h.
        #expect(identifiers == [7, 20, 18, 19, 22, 21, 42, 27])
    }

    @Test("Foundation objects and bridged Swift values have their Core Foundation type's identifier")
    func foundationObjects() {
        let cases: [(AnyObject, CFTypeID, String)] = [
            (NSString(string: "a"), CFStringGetTypeID(), "NSString"),
            (NSMutableString(string: "a"), CFStringGetTypeID(), "NSMutableString"),
            ("a" as AnyObject, CFStringGetTypeID(), "String"),
            (kSecAttrAccount, CFStringGetTypeID(), "kSecAttrAccount"),
            (NSData(data: Data([1])), CFDataGetTypeID(), "NSData"),
            (Data([1]) as AnyObject, CFDataGetTypeID(), "Data"),
            (NSMutableDictionary(), CFDictionaryGetTypeID(), "NSMutableDictionary"),
            (["a": 1] as AnyObject, CFDictionaryGetTypeID(), "Dictionary"),
            (NSArray(array: [1]), CFArrayGetTypeID(), "NSArray"),
            ([1, 2] as AnyObject, CFArrayGetTypeID(), "Array"),
            (NSNumber(value: 5), CFNumberGetTypeID(), "NSNumber(5)"),
            (NSNumber(value: 1), CFNumberGetTypeID(), "NSNumber(1)"),
            (NSNumber(value: 1.5), CFNumberGetTypeID(), "NSNumber(1.5)"),
            (kCFBooleanTrue, CFBooleanGetTypeID(), "kCFBooleanTrue"),
            (kCFBooleanFalse, CFBooleanGetTypeID(), "kCFBooleanFalse"),
            (NSNumber(value: false), CFBooleanGetTypeID(), "NSNumber(false)"),
            (true as AnyObject, CFBooleanGetTypeID(), "Bool"),
            (NSDate(), CFDateGetTypeID(), "NSDate"),
            (Date() as AnyObject, CFDateGetTypeID(), "Date"),
            (NSError(domain: NSOSStatusErrorDomain, code: -50), CFErrorGetTypeID(), "NSError"),
        ]
        for (object, expected, label) in cases {
            #expect(CFGetTypeID(object) == expected, "\(label)")
        }
    }

    @Test("a Keychain Services type is told apart by its own identifier")
    func keychainServicesType() {
        let object: CFTypeRef = KeychainObjectStandIn()
        #expect(CFGetTypeID(object) == KeychainObjectStandIn.coreFoundationTypeID)
        #expect(CFGetTypeID(object) != CFStringGetTypeID())
    }

    @Test("SecItemCopyMatching's results have the types Apple code checks for")
    func secItemResults() throws {
        let keychain = PrivateKeychain()
        let item: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                                   kSecValueData as String: Data("s".utf8)]
        #expect(keychain.run { SecItemAdd(item as CFDictionary, nil) } == errSecSuccess)
        var data: CFTypeRef?
        let dataQuery: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                                        kSecReturnData as String: true]
        #expect(keychain.run { SecItemCopyMatching(dataQuery as CFDictionary, &data) } == errSecSuccess)
        #expect(CFGetTypeID(data) == CFDataGetTypeID())
        var attributes: CFTypeRef?
        let attributesQuery: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                              kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll]
        #expect(keychain.run { SecItemCopyMatching(attributesQuery as CFDictionary, &attributes) } == errSecSuccess)
        #expect(CFGetTypeID(attributes) == CFArrayGetTypeID())
        let first = try #require((attributes as? [[String: Any]])?.first)
        #expect(CFGetTypeID(first as AnyObject) == CFDictionaryGetTypeID())
        #expect(CFGetTypeID(first[kSecAttrAccount as String] as AnyObject) == CFStringGetTypeID())
        #expect(CFGetTypeID(first[kSecAttrCreationDate as String] as AnyObject) == CFDateGetTypeID())
    }

    @Test("nil and objects of no Core Foundation type have identifier 0, which no type has")
    func notAType() {
        #expect(CFGetTypeID(nil) == 0)
        #expect(CFGetTypeID(NSObject()) == 0)
    }
}
