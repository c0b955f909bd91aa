import Foundation

// The type identifiers of the Core Foundation types this module maps onto Foundation classes,
// so that Apple code which tells objects apart by `CFGetTypeID(ref) == CFStringGetTypeID()`
// works unchanged. The values are those of Apple's Core Foundation runtime
// (CFRuntime_Internal.h); Apple does not promise them, and code should compare with the
// `...GetTypeID()` functions rather than with numbers. This module's own types
// (`CoreFoundationTyped`) take identifiers outside 0...99, which these use.

/// The identifier of a Core Foundation type, keyed by what `CFGetTypeID` can meet.
private enum FoundationTypeID {
    static let notAType: CFTypeID = 0
    static let string: CFTypeID = 7
    static let dictionary: CFTypeID = 18
    static let array: CFTypeID = 19
    static let data: CFTypeID = 20
    static let boolean: CFTypeID = 21
    static let number: CFTypeID = 22
    static let error: CFTypeID = 27
    static let date: CFTypeID = 42
}

/// The class Foundation gives the two boolean numbers, `kCFBooleanTrue` and `kCFBooleanFalse`,
/// which tells `CFBoolean` apart from the other `NSNumber`s, as Core Foundation does.
private let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))

/// The type identifier of a Core Foundation object, as on Apple platforms.
///
/// Compare it with a type's `...GetTypeID()` function: `CFStringGetTypeID()`,
/// `CFDictionaryGetTypeID()`, `SecKeyGetTypeID()` and so on. Foundation objects that stand
/// for Core Foundation types here (an `NSString` for a `CFString`, an `NSNumber` holding a
/// Bool for a `CFBoolean`) and Swift values bridged to them (`"text" as AnyObject`) have the
/// identifier of their Core Foundation type; Keychain Services objects have their type's.
///
/// - Parameter cf: The object.
/// - Returns: Its type's identifier; 0, which no type has, for nil or an object that is no
///   Core Foundation type (where Apple's function would crash).
@discardableResult
public func CFGetTypeID(_ cf: CFTypeRef?) -> CFTypeID {
    guard let cf else { return FoundationTypeID.notAType }
    if let typed = cf as? any CoreFoundationTyped {
        return type(of: typed).coreFoundationTypeID
    }
    switch cf {
    case is NSString, is String:
        return FoundationTypeID.string
    case let number as NSNumber:
        return ObjectIdentifier(type(of: number)) == booleanNumberClass ? FoundationTypeID.boolean : FoundationTypeID.number
    case is NSData:
        return FoundationTypeID.data
    case is NSDictionary:
        return FoundationTypeID.dictionary
    case is NSArray:
        return FoundationTypeID.array
    case is NSDate:
        return FoundationTypeID.date
    case is NSError:
        return FoundationTypeID.error
    default:
        return FoundationTypeID.notAType
    }
}

/// The type identifier of `CFString` (an `NSString` here).
@discardableResult
public func CFStringGetTypeID() -> CFTypeID { FoundationTypeID.string }
/// The type identifier of `CFData` (an `NSData` here).
@discardableResult
public func CFDataGetTypeID() -> CFTypeID { FoundationTypeID.data }
/// The type identifier of `CFDictionary` (an `NSDictionary` here).
@discardableResult
public func CFDictionaryGetTypeID() -> CFTypeID { FoundationTypeID.dictionary }
/// The type identifier of `CFArray` (an `NSArray` here).
@discardableResult
public func CFArrayGetTypeID() -> CFTypeID { FoundationTypeID.array }
/// The type identifier of `CFNumber`: an `NSNumber` that does not hold a Bool.
@discardableResult
public func CFNumberGetTypeID() -> CFTypeID { FoundationTypeID.number }
/// The type identifier of `CFBoolean`: `kCFBooleanTrue`, `kCFBooleanFalse` and every
/// `NSNumber` made from a Bool.
@discardableResult
public func CFBooleanGetTypeID() -> CFTypeID { FoundationTypeID.boolean }
/// The type identifier of `CFDate` (an `NSDate` here).
@discardableResult
public func CFDateGetTypeID() -> CFTypeID { FoundationTypeID.date }
/// The type identifier of `CFError` (an `NSError` here).
@discardableResult
public func CFErrorGetTypeID() -> CFTypeID { FoundationTypeID.error }
