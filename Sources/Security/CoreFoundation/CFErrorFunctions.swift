import Foundation

// Core Foundation's error functions, over NSError (which CFError is here, as it is bridged
// to on Apple platforms). KeychainAccess and others turn the CFError a Security function
// returns into an NSError with them.

/// The name of an error domain.
public typealias CFErrorDomain = CFString

/// The domain of `OSStatus` codes, the codes Keychain Services returns: `NSOSStatusErrorDomain`.
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain! = NSString(string: NSOSStatusErrorDomain)
/// The domain of POSIX `errno` codes: `NSPOSIXErrorDomain`.
nonisolated(unsafe) public let kCFErrorDomainPOSIX: CFErrorDomain! = NSString(string: NSPOSIXErrorDomain)
/// The domain of Foundation's codes: `NSCocoaErrorDomain`.
nonisolated(unsafe) public let kCFErrorDomainCocoa: CFErrorDomain! = NSString(string: NSCocoaErrorDomain)

/// The user-info key of a complete, presentable description: `NSLocalizedDescription`.
nonisolated(unsafe) public let kCFErrorLocalizedDescriptionKey: CFString! = NSString(string: NSLocalizedDescriptionKey)
/// The user-info key of the reason an operation failed: `NSLocalizedFailureReason`.
nonisolated(unsafe) public let kCFErrorLocalizedFailureReasonKey: CFString! = NSString(string: NSLocalizedFailureReasonErrorKey)
/// The user-info key of what the user might do about it: `NSLocalizedRecoverySuggestion`.
nonisolated(unsafe) public let kCFErrorLocalizedRecoverySuggestionKey: CFString! = NSString(string: NSLocalizedRecoverySuggestionErrorKey)
/// The user-info key of a description that is not for display: `NSDescription`.
nonisolated(unsafe) public let kCFErrorDescriptionKey: CFString! = "NSDescription"
/// The user-info key of the error that caused this one: `NSUnderlyingError`.
nonisolated(unsafe) public let kCFErrorUnderlyingErrorKey: CFString! = NSString(string: NSUnderlyingErrorKey)

/// Makes an error.
///
/// - Parameters:
///   - allocator: Pass nil or `kCFAllocatorDefault`.
///   - domain: The error's domain, such as `kCFErrorDomainOSStatus`; nil makes an error of
///     the empty domain rather than crashing.
///   - code: The error's code in its domain.
///   - userInfo: Its user-info dictionary, copied; nil for none. Entries whose keys are not
///     strings are left out, as user-info keys are strings.
/// - Returns: The error.
@discardableResult
public func CFErrorCreate(_ allocator: CFAllocator!, _ domain: CFErrorDomain!, _ code: CFIndex, _ userInfo: CFDictionary!) -> CFError! {
    var info: [String: Any] = [:]
    for case let (key as String, value) in (userInfo as? [AnyHashable: Any]) ?? [:] {
        info[key] = value
    }
    return NSError(domain: (domain as String?) ?? "", code: code, userInfo: info)
}

/// The domain of an error, such as `kCFErrorDomainOSStatus`; nil for a nil error.
@discardableResult
public func CFErrorGetDomain(_ err: CFError!) -> CFErrorDomain! {
    guard let err else { return nil }
    return NSString(string: err.domain)
}

/// The code of an error in its domain (for Keychain Services errors, the `OSStatus`); 0 for
/// a nil error.
@discardableResult
public func CFErrorGetCode(_ err: CFError!) -> CFIndex {
    err?.code ?? 0
}

/// A copy of an error's user-info dictionary: empty, never nil, for an error that has none.
@discardableResult
public func CFErrorCopyUserInfo(_ err: CFError!) -> CFDictionary! {
    NSDictionary(dictionary: err?.userInfo ?? [:])
}

/// A description of an error for the user, made as Apple's Core Foundation makes it.
///
/// The user info's `kCFErrorLocalizedDescriptionKey` if it has one; otherwise
/// "The operation couldn’t be completed." followed by its failure reason, or by the domain
/// and code, as in "The operation couldn’t be completed. (OSStatus error -25300.)". The
/// `NS...ErrorDomain` domains are named as Apple names them (`OSStatus`, `Cocoa`), and a
/// POSIX error by its `strerror` text.
@discardableResult
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! {
    guard let err else { return nil }
    if let described = err.userInfo[NSLocalizedDescriptionKey] as? String {
        return NSString(string: described)
    }
    let start = "The operation couldn\u{2019}t be completed."
    if let reason = err.userInfo[NSLocalizedFailureReasonErrorKey] as? String {
        return NSString(string: "\(start) \(reason)")
    }
    if err.domain == NSPOSIXErrorDomain, let code = Int32(exactly: err.code), let text = strerror(code) {
        return NSString(string: "\(start) \(String(cString: text))")
    }
    let domain = presentedDomain(err.domain)
    if let detail = err.userInfo["NSDescription"] as? String {
        return NSString(string: "\(start) (\(domain) error \(err.code) - \(detail))")
    }
    return NSString(string: "\(start) (\(domain) error \(err.code).)")
}

/// The reason an error's operation failed (`kCFErrorLocalizedFailureReasonKey`); nil if it
/// gives none.
@discardableResult
public func CFErrorCopyFailureReason(_ err: CFError!) -> CFString! {
    (err?.userInfo[NSLocalizedFailureReasonErrorKey] as? String).map { NSString(string: $0) }
}

/// What the user might do about an error (`kCFErrorLocalizedRecoverySuggestionKey`); nil if
/// it suggests nothing.
@discardableResult
public func CFErrorCopyRecoverySuggestion(_ err: CFError!) -> CFString! {
    (err?.userInfo[NSLocalizedRecoverySuggestionErrorKey] as? String).map { NSString(string: $0) }
}

/// A domain as Apple's descriptions name it: "NSOSStatusErrorDomain" is "OSStatus",
/// "NSCocoaErrorDomain" "Cocoa"; any other domain as it is.
private func presentedDomain(_ domain: String) -> String {
    let prefix = "NS", suffix = "ErrorDomain"
    guard domain.hasPrefix(prefix), domain.hasSuffix(suffix), domain.count > prefix.count + suffix.count else {
        return domain
    }
    return String(domain.dropFirst(prefix.count).dropLast(suffix.count))
}
