import Foundation

// The Core Foundation names that Darwin code gets through Foundation and that Linux
// Foundation lacks. Each is the Foundation class that CF type is toll-free bridged with on
// Darwin, so `query as CFDictionary`, `kSecClass as String`, `result as? Data` and
// `kSecAttrAccount as AnyObject` compile and behave as they do there.

/// A status code: 0 is success, negative values are errors (see `SecCopyErrorMessageString`).
public typealias OSStatus = Int32
/// Core Foundation's index and count type.
public typealias CFIndex = Int
/// Core Foundation's flags type.
public typealias CFOptionFlags = UInt
/// Any Core Foundation object.
public typealias CFTypeRef = AnyObject
/// A Core Foundation string; an `NSString` here, as on Darwin where the two are bridged.
public typealias CFString = NSString
/// A Core Foundation dictionary; an `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// A mutable Core Foundation dictionary; an `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// A Core Foundation data object; an `NSData`.
public typealias CFData = NSData
/// A Core Foundation array; an `NSArray`.
public typealias CFArray = NSArray
/// A Core Foundation number; an `NSNumber`.
public typealias CFNumber = NSNumber
/// A Core Foundation boolean; an `NSNumber` holding a Bool.
public typealias CFBoolean = NSNumber
/// A Core Foundation date; an `NSDate`.
public typealias CFDate = NSDate
/// A Core Foundation error; an `NSError`.
public typealias CFError = NSError
/// A point in time: seconds since 1 January 2001 GMT (`Date.timeIntervalSinceReferenceDate`).
public typealias CFAbsoluteTime = Double

/// The success status.
public let noErr: OSStatus = 0

/// The true value, for dictionaries such as `[kSecReturnData: kCFBooleanTrue]`.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The false value.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// A memory allocator. There is one, the default; it exists so that calls which pass
/// `kCFAllocatorDefault` compile.
public final class CFAllocator: Sendable {
    fileprivate init() {}
}

/// The default allocator.
public let kCFAllocatorDefault: CFAllocator! = CFAllocator()

#if !_runtime(_ObjC)
/// Darwin parity for dictionary lookups such as `attributes[key]` on `[AnyHashable: Any]`
/// with a `String?` or `String!` key (`let SecAttrAccount: String! = kSecAttrAccount as
/// String`). Darwin gives `AnyHashable(Optional("acct"))` the representation of the
/// `String` "acct": the optional is unwrapped and the string bridged to `NSString`, whose
/// custom representation is `String`. Without the Objective-C runtime the key stays an
/// `Optional<String>`, which never equals the `String` keys of a result dictionary.
/// Optionals are unwrapped before this conformance is looked up, so it gives them
/// Darwin's behaviour; `AnyHashable(String)` itself is unchanged.
extension String: @retroactive _HasCustomAnyHashableRepresentation {
    public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(self) }
}
#endif
