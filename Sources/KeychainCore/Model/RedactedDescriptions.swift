import Foundation

// Values of items never show in descriptions, debug descriptions, `String(reflecting:)` or
// `dump`: those end up in logs and error reports. Text and bytes show as their size only;
// numbers, flags and dates, which hold no secret, show as they are. Types that hold a secret
// (`Data`) give a mirror without its bytes, which Foundation's `Data` mirror would list.

extension AttributeValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String {
        switch self {
        case .string(let string): "string(<redacted, \(string.utf8.count) bytes>)"
        case .data(let data): "data(<redacted, \(data.count) bytes>)"
        case .number(let number): "number(\(number))"
        case .bool(let flag): "bool(\(flag))"
        case .date(let date): "date(\(date))"
        }
    }

    package var debugDescription: String { description }

    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}

extension NewItem: CustomReflectable {
    package var customMirror: Mirror {
        Mirror(self, children: [
            "itemClass": itemClass, "attributes": attributes, "isSynchronizable": isSynchronizable,
            "data": redacted(data),
        ])
    }
}

extension ItemChanges: CustomReflectable {
    package var customMirror: Mirror {
        Mirror(self, children: ["attributes": attributes, "data": redacted(data)])
    }
}

extension FoundItem: CustomReflectable {
    package var customMirror: Mirror {
        Mirror(self, children: ["record": record as Any, "data": redacted(data), "persistentReference": persistentReference])
    }
}

private func redacted(_ data: Data?) -> String {
    data.map { "<redacted, \($0.count) bytes>" } ?? "nil"
}
