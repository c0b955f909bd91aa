import Foundation
@_implementationOnly import KeychainCore

/// Conversions between the Foundation objects callers put in dictionaries and the core's
/// typed values. Swift values (String, Data, Bool, Int) and their Foundation counterparts
/// (NSString, NSData, NSNumber) are read alike.
enum FoundationValues {
    /// A value's text when it is a string (`String` or `NSString`). Dictionary values
    /// arrive as Foundation objects, and a class cast plus a direct bridge costs a fraction of
    /// the runtime's general `as? String` search, which runs on every key of every call.
    static func string(_ value: Any) -> String? {
        // Every key of a bridged dictionary, and its string values, are exactly NSString: an
        // object of that one class is taken without the runtime's cast (a fifth of each
        // conversion, measured), which `as? NSString` runs for subclasses too.
        if type(of: value) == NSString.self { return unsafeDowncast(value as AnyObject, to: NSString.self) as String }
        // A Swift String (a query given unbridged) is taken as it is, not bridged to NSString
        // and back.
        if type(of: value) == String.self { return value as? String }
        if let object = value as? NSString { return object as String }
        return value as? String
    }

    /// The flag of a boolean: a Swift Bool or the boolean NSNumber singletons
    /// (`kCFBooleanTrue`, `NSNumber(value: true)`); nil for anything else, numbers included.
    static func boolean(_ value: Any) -> Bool? {
        // A bridged `true` or `false` is one of the two singletons, of one class: compared
        // without the runtime's cast, as ``string(_:)`` reads NSString.
        if ObjectIdentifier(type(of: value)) == booleanClass {
            let object = value as AnyObject
            return object === kCFBooleanTrue ? true : object === kCFBooleanFalse ? false : nil
        }
        if type(of: value) == Bool.self { return value as? Bool }
        guard let object = value as? NSNumber else { return nil }
        if object === kCFBooleanTrue { return true }
        if object === kCFBooleanFalse { return false }
        return nil
    }

    /// The class of the boolean singletons (a subclass of NSNumber).
    /// Read from the unwrapped constant: bridging the optional would run the runtime's general
    /// bridging, whose first use in a process scans every protocol conformance record.
    private static let booleanClass = ObjectIdentifier(type(of: kCFBooleanTrue!))

    /// Whether a value is a boolean rather than a number.
    static func isBoolean(_ value: Any) -> Bool {
        boolean(value) != nil
    }

    /// An attribute value in the caller's type. NSNull and non-integral numbers are
    /// errSecParam; whether the kind suits the attribute is the core's check.
    static func attributeValue(_ value: Any, key: String) throws(KeychainError) -> AttributeValue {
        // Text first: most attributes are strings, and every failed cast costs a runtime search.
        if let string = string(value) { return .string(string) }
        if let data = data(value) { return .data(data) }
        if value is NSNull { throw .param("attribute '\(key)' is null") }
        if let date = value as? Date { return .date(date) }
        if let flag = boolean(value) { return .bool(flag) }
        if let number = value as? NSNumber {
            let integer = number.int64Value
            guard Double(integer) == number.doubleValue else {
                throw .param("attribute '\(key)' takes a whole number")
            }
            return .number(integer)
        }
        throw .param("attribute '\(key)' has a value of an unsupported type")
    }

    /// Data given as Swift `Data` or as `NSData`. Linux Foundation bridges NSData to Data
    /// a byte at a time; copying its buffer is one memcpy (measured: a third of parsing an
    /// add).
    static func data(_ value: Any) -> Data? {
        if type(of: value) == Data.self { return value as? Data }
        guard let object = value as? NSData else { return nil }
        return Data(bytes: object.bytes, count: object.length)
    }

    /// A `kSecReturn*` flag: a boolean only (false is the same as absent); a number 0 or 1 is
    /// not one, and is errSecParam.
    static func flag(_ value: Any, key: String) throws(KeychainError) -> Bool {
        if let flag = boolean(value) { return flag }
        throw .param("'\(key)' takes a boolean")
    }

    /// The Foundation object for an attribute value, as the caller first gave it.
    static func object(_ value: AttributeValue) -> Any {
        switch value {
        case .string(let string): string
        case .data(let data): ResultData(data)
        case .number(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .date(let date): date
        }
    }
}
