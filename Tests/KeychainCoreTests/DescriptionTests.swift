import Foundation
import KeychainCore
import Testing
import TestSupport

/// Secrets in output (issue 3, scope 5): the public types of KeychainCore that carry an
/// item's secret or attribute values never show them in `description`, `debugDescription`,
/// `String(reflecting:)` or `dump`, which is where they end up in logs and error reports.
@Suite struct DescriptionTests {
    static let secret = "MkSecret7Qx2Lm9"
    static let account = "MkAccount4Rt8Zp"
    static let label = "MkLabel3Vb6Nc1"

    /// The markers, and the secret's bytes as `dump` prints an array of them.
    static func leaks(in value: Any) -> [String] {
        let secretBytes = Array(secret.utf8).map(String.init).joined(separator: "\n")
        return renderings(of: value).filter { text in
            text.contains("MkSecret") || text.contains("MkAccount") || text.contains("MkLabel")
                || text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: "")
                    .contains(secretBytes.prefix(20))
        }
    }

    static let attributes: [String: AttributeValue] = [
        "acct": .string(account), "svce": .data(Data(account.utf8)), "labl": .string(label),
    ]

    @Test func valuesInTheModelAreNotShown() throws {
        let data = Data(Self.secret.utf8)
        let values: [(String, Any)] = [
            ("AttributeValue", AttributeValue.string(Self.account)),
            ("AttributeValue.data", AttributeValue.data(data)),
            ("NewItem", NewItem(itemClass: .genericPassword, attributes: Self.attributes, data: data)),
            ("ItemQuery", ItemQuery(itemClass: .genericPassword, attributes: Self.attributes, returning: [.data])),
            ("ItemChanges", ItemChanges(attributes: Self.attributes, data: data)),
        ]
        for (name, value) in values {
            #expect(Self.leaks(in: value).isEmpty, "\(name): \(Self.leaks(in: value))")
        }
    }

    @Test func storedItemsAreNotShown() throws {
        let folder = TestScratch.folder("description")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try KeychainStore.shared(KeychainFiles(directory: folder, name: "login"))
        let caller = CallerIdentity(accessGroups: ["proof.descriptions"])
        let added = try store.add(NewItem(itemClass: .genericPassword, attributes: Self.attributes, data: Data(Self.secret.utf8)),
                                  by: caller, returning: [.data, .attributes])
        let found = try store.find(ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string(Self.account)],
                                             returning: [.data, .attributes]), by: caller)
        let values: [(String, Any)] = [
            ("FoundItem", added), ("[FoundItem]", found), ("ItemRecord", try #require(added.record)),
            ("KeychainError", KeychainError.missingEntitlement(group: "proof.other")),
        ]
        for (name, value) in values {
            #expect(Self.leaks(in: value).isEmpty, "\(name): \(Self.leaks(in: value))")
        }
    }
}
