import Foundation

extension Keychain {
    /// The value of an item attribute, in a form that is `Sendable` and `Hashable`.
    ///
    /// Used for ``KeychainOptions/attributes`` (extra attributes written with every item) and
    /// for the attributes of a ``KeychainItem``. Numbers and booleans read back from the
    /// keychain come as ``integer(_:)``, because Keychain Services returns both as numbers.
    public enum AttributeValue: Sendable, Hashable {
        /// Text, such as `kSecAttrDescription`.
        case string(String)
        /// Bytes, such as `kSecAttrGeneric`.
        case data(Data)
        /// A whole number, such as `kSecAttrCreator` or `kSecAttrPort`.
        case integer(Int)
        /// A flag, such as `kSecAttrIsInvisible`.
        case bool(Bool)
        /// A date, such as `kSecAttrCreationDate`.
        case date(Date)

        /// The Foundation value to put in a query dictionary.
        var dictionaryValue: Any {
            switch self {
            case .string(let string): string
            case .data(let data): data
            case .integer(let integer): integer
            case .bool(let flag): flag
            case .date(let date): date
            }
        }

        /// The value of a result dictionary entry; nil for types attributes never have.
        init?(dictionaryValue value: Any) {
            if let string = value as? String {
                self = .string(string)
            } else if let data = value as? Data {
                self = .data(data)
            } else if let date = value as? Date {
                self = .date(date)
            } else if let number = value as? NSNumber {
                self = .integer(number.intValue)
            } else {
                return nil
            }
        }
    }
}
