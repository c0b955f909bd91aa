import Foundation
@testable import KeychainCore
import Testing
import TestSupport

/// referencesByColumns: the items a query's lookup columns alone decide, named without
/// opening any, so also while their class is locked (where find is
/// errSecInteractionNotAllowed); nil for a query the columns cannot decide; only the caller's access groups.
@Suite struct ColumnSearchTests {
    let caller = CallerIdentity(accessGroups: ["com.example.app"])

    func password(service: String, account: String) -> NewItem {
        NewItem(itemClass: .genericPassword,
                attributes: ["svce": .string(service), "acct": .string(account),
                             "pdmn": .string(Accessibility.whenUnlocked.rawValue)],
                data: Data("secret".utf8))
    }

    @Test func lockedItemsAreNamedByTheirColumnsAlone() throws {
        let folder = TestScratch.folder("column-search")
        let files = KeychainFiles(directory: folder.appendingPathComponent("keychains"), name: "work",
                                  machineSecret: folder.appendingPathComponent("machine"))
        let store = try KeychainStore.create(files, password: Data("pw".utf8), kdf: .fastForTesting())
        let first = try store.add(password(service: "s", account: "a"), by: caller).persistentReference
        let second = try store.add(password(service: "s", account: "b"), by: caller).persistentReference
        _ = try store.add(password(service: "t", account: "a"), by: caller)
        store.lock()
        let byService = ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("s")], limit: .all)
        #expect(throws: KeychainError.interactionNotAllowed) { try store.find(byService, by: caller) }
        #expect(try store.referencesByColumns(byService, by: caller) == [first, second])
        let exact = ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("s"), "acct": .string("a")])
        #expect(try store.referencesByColumns(exact, by: caller) == [first])
        // The label is sealed, not a lookup column: the columns cannot decide.
        let byLabel = ItemQuery(itemClass: .genericPassword, attributes: ["labl": .string("x")], limit: .all)
        #expect(try store.referencesByColumns(byLabel, by: caller) == nil)
        // Another program's access group sees none of them.
        #expect(try store.referencesByColumns(byService, by: CallerIdentity(accessGroups: ["org.other"])) == [])
    }
}
