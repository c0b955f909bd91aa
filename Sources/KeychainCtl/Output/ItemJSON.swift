import Foundation
import Security

/// Items as JSON, for `--json`: an object per item with the keychain, the class, every
/// attribute the item sets by its four-character code (access group, protection class and
/// synchronizable flag included) and, only when asked for, the secret under `data`.
///
/// Text is a JSON string; numbers are numbers; dates are ISO 8601 strings in UTC (null for
/// one no calendar shows); bytes that are not UTF-8 are an object `{"hex": "<lowercase hex>"}`.
enum ItemJSON {
    static func object(for item: KeychainItem, keychainPath: String, withData: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "keychain": keychainPath,
            "class": item.itemClass,
            "attributes": item.attributes.mapValues(value),
        ]
        if withData { object["data"] = value(item.data ?? Data()) }
        return object
    }

    /// Writes one object or an array on standard output, keys sorted, with a final newline.
    static func write(_ json: Any) throws {
        let data = try JSONSerialization.data(
            withJSONObject: json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        ConsoleOutput.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func value(_ value: Any) -> Any {
        switch value {
        case let date as Date:
            return UTCTime(date)?.iso8601 ?? NSNull()
        case let data as Data:
            guard let text = String(data: data, encoding: .utf8) else {
                return ["hex": HexDigits.string(data)]
            }
            return text
        case let number as NSNumber:
            return number
        case let text as String:
            return text
        default:
            return String(describing: value)
        }
    }
}
