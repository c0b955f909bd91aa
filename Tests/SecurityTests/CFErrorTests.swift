import Foundation
import Security
import Testing

/// The CFError functions over NSError, used as KeychainAccess uses them to turn a CFError
/// from a Security function into an NSError; the domain and bundle keys with Apple's values.
@Suite("CFError functions and Core Foundation keys")
struct CFErrorTests {
    @Test("the domain and key constants have Apple's values")
    func constants() {
        #expect(kCFErrorDomainOSStatus as String == "NSOSStatusErrorDomain")
        #expect(kCFErrorDomainPOSIX as String == "NSPOSIXErrorDomain")
        #expect(kCFErrorDomainCocoa as String == "NSCocoaErrorDomain")
        #expect(kCFErrorLocalizedDescriptionKey as String == "NSLocalizedDescription")
        #expect(kCFErrorLocalizedFailureReasonKey as String == "NSLocalizedFailureReason")
        #expect(kCFErrorLocalizedRecoverySuggestionKey as String == "NSLocalizedRecoverySuggestion")
        #expect(kCFErrorDescriptionKey as String == "NSDescription")
        #expect(kCFErrorUnderlyingErrorKey as String == "NSUnderlyingError")
        #expect(kCFBundleIdentifierKey as String == "CFBundleIdentifier")
        #expect(kCFBundleNameKey as String == "CFBundleName")
        #expect(kCFBundleVersionKey as String == "CFBundleVersion")
        #expect(kCFBundleExecutableKey as String == "CFBundleExecutable")
        #expect(kCFBundleInfoDictionaryVersionKey as String == "CFBundleInfoDictionaryVersion")
    }

    @Test("the functions have Apple's signatures")
    func appleSignatures() {
        // Apple's: CFError! parameters and results are optionals in a function's type.
        let create: (CFAllocator?, CFErrorDomain?, CFIndex, CFDictionary?) -> CFError? = CFErrorCreate
        let domain: (CFError?) -> CFErrorDomain? = CFErrorGetDomain
        let code: (CFError?) -> CFIndex = CFErrorGetCode
        let userInfo: (CFError?) -> CFDictionary? = CFErrorCopyUserInfo
        let description: (CFError?) -> CFString? = CFErrorCopyDescription
        let typeID: () -> CFTypeID = CFErrorGetTypeID
        let error = create(kCFAllocatorDefault, kCFErrorDomainOSStatus, -50, nil)
        #expect(domain(error) as String? == NSOSStatusErrorDomain)
        #expect(code(error) == -50)
        #expect(userInfo(error)?.count == 0)
        #expect(description(error) as String? == "The operation couldn\u{2019}t be completed. (OSStatus error -50.)")
        #expect(CFGetTypeID(error) == typeID())
    }

    @Test("KeychainAccess's conversion: domain, code and user info of a CFError make the same NSError")
    func keychainAccessConversion() throws {
        let cfError: CFError = CFErrorCreate(kCFAllocatorDefault, kCFErrorDomainOSStatus, CFIndex(errSecItemNotFound),
                                             [kCFErrorLocalizedDescriptionKey as String: "Not there."] as CFDictionary)
        // KeychainAccess, Keychain.swift: `extension CFError { var error: NSError { ... } }`.
        let domain = CFErrorGetDomain(cfError) as String
        let code = CFErrorGetCode(cfError)
        let userInfo = CFErrorCopyUserInfo(cfError) as! [String: Any]
        let error = NSError(domain: domain, code: code, userInfo: userInfo)
        #expect(error.domain == NSOSStatusErrorDomain)
        #expect(OSStatus(error.code) == errSecItemNotFound)
        #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == "Not there.")
        #expect(CFErrorCopyDescription(cfError) as String == "Not there.")
    }

    @Test("an NSError is a CFError: the functions read one made by Foundation")
    func foundationErrorIsCFError() {
        let error = NSError(domain: NSOSStatusErrorDomain, code: Int(errSecDuplicateItem))
        #expect(CFErrorGetCode(error) == CFIndex(errSecDuplicateItem))
        #expect(CFErrorGetDomain(error) as String == NSOSStatusErrorDomain)
        // No user info: an empty dictionary, not nil.
        #expect(CFErrorCopyUserInfo(error).count == 0)
    }

    @Test("descriptions are made as Apple's Core Foundation makes them", arguments: [
        (NSOSStatusErrorDomain, -25300, [:], "The operation couldn\u{2019}t be completed. (OSStatus error -25300.)"),
        (NSCocoaErrorDomain, 4, [:], "The operation couldn\u{2019}t be completed. (Cocoa error 4.)"),
        ("com.example", 7, [:], "The operation couldn\u{2019}t be completed. (com.example error 7.)"),
        (NSPOSIXErrorDomain, 2, [:], "The operation couldn\u{2019}t be completed. No such file or directory"),
        ("com.example", 7, [NSLocalizedFailureReasonErrorKey: "The disk is full."],
         "The operation couldn\u{2019}t be completed. The disk is full."),
        ("com.example", 7, ["NSDescription": "bad tag"], "The operation couldn\u{2019}t be completed. (com.example error 7 - bad tag)"),
        ("com.example", 7, [NSLocalizedDescriptionKey: "Whole sentence.", NSLocalizedFailureReasonErrorKey: "ignored"],
         "Whole sentence."),
    ] as [(String, Int, [String: String], String)])
    func descriptions(domain: String, code: Int, userInfo: [String: String], expected: String) {
        let error = CFErrorCreate(nil, NSString(string: domain), code, userInfo as CFDictionary)
        #expect(CFErrorCopyDescription(error) as String == expected)
    }

    @Test("failure reason and recovery suggestion come from the user info, nil when absent")
    func reasonAndSuggestion() {
        let error = CFErrorCreate(nil, kCFErrorDomainOSStatus, -50, [
            NSLocalizedFailureReasonErrorKey: "A parameter was wrong.",
            NSLocalizedRecoverySuggestionErrorKey: "Check the query.",
        ] as CFDictionary)
        #expect(CFErrorCopyFailureReason(error) as String? == "A parameter was wrong.")
        #expect(CFErrorCopyRecoverySuggestion(error) as String? == "Check the query.")
        let bare = CFErrorCreate(nil, kCFErrorDomainOSStatus, -50, nil)
        #expect(CFErrorCopyFailureReason(bare) == nil)
        #expect(CFErrorCopyRecoverySuggestion(bare) == nil)
    }

    @Test("nil errors and domains give documented values rather than a crash")
    func nilArguments() {
        #expect(CFErrorGetCode(nil) == 0)
        #expect(CFErrorGetDomain(nil) == nil)
        #expect(CFErrorCopyDescription(nil) == nil)
        #expect(CFErrorCopyUserInfo(nil).count == 0)
        let noDomain = CFErrorCreate(nil, nil, 1, nil)
        #expect(CFErrorGetDomain(noDomain) as String == "")
    }
}
