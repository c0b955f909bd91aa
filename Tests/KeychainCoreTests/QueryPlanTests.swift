import Foundation
import GRDB
@testable import KeychainCore
import Testing
import TestSupport

/// Lookups go through indexes and never read the table row by row (issue 2, scope 4): what
/// SQLite plans for each common query shape, read with EXPLAIN QUERY PLAN.
@Suite struct QueryPlanTests {
    let store: KeychainStore
    let caller = CallerIdentity(accessGroups: ["com.example.app", "com.example.shared"])

    init() throws {
        let folder = TestScratch.folder("plans")
        store = try KeychainStore.open(KeychainFiles(directory: folder, name: "login"))
    }

    /// SQLite's plan for the rows a query reads.
    func plan(_ query: ItemQuery) throws -> String {
        let plan = try MatchPlan(query: query, caller: caller, hasher: store.hasher)
        return try store.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + plan.sql(withSecret: true),
                             arguments: StatementArguments(plan.arguments.map(\.databaseValue)))
                .map { $0["detail"] as String }
                .joined(separator: "\n")
        }
    }

    /// Queries and the indexes that may answer them: with account and service, either one
    /// narrows to the item.
    @Test(arguments: [
        (ItemClass.genericPassword, ["acct": AttributeValue.string("a"), "svce": .string("s")],
         ["generic_password_key", "item_by_account"]),
        (.genericPassword, ["svce": .string("s")], ["generic_password_key"]),
        (.genericPassword, ["acct": .string("a")], ["item_by_account"]),
        (.genericPassword, ["acct": .string("a"), "labl": .string("l")], ["item_by_account"]),
        (.internetPassword, ["srvr": .string("h"), "acct": .string("a"), "ptcl": .string("htps")],
         ["internet_password_key", "item_by_account"]),
        (.internetPassword, ["srvr": .string("h")], ["internet_password_key"]),
        (.internetPassword, ["acct": .string("a")], ["item_by_account"]),
        // Keys by application tag or label, certificates by public-key hash (format 4).
        (.key, ["atag": .data(Data("com.example.key".utf8))], ["key_by_tag"]),
        (.key, ["atag": .string("com.example.key"), "kcls": .number(1), "labl": .string("l")], ["key_by_tag"]),
        (.key, ["klbl": .data(Data(repeating: 1, count: 20))], ["key_by_label"]),
        (.key, ["klbl": .data(Data(repeating: 1, count: 20)), "atag": .data(Data("t".utf8))],
         ["key_by_label", "key_by_tag"]),
        (.certificate, ["pkhh": .data(Data(repeating: 1, count: 20))], ["certificate_by_public_key_hash"]),
    ])
    func searchedAttributesUseAnIndex(itemClass: ItemClass, attributes: [String: AttributeValue],
                                      indexes: [String]) throws {
        let detail = try plan(ItemQuery(itemClass: itemClass, attributes: attributes))
        #expect(indexes.contains { detail.contains("USING INDEX \($0) ") }, "\(detail)")
        #expect(!detail.contains("SCAN item"), "\(detail)")
    }

    @Test("of several wrong attributes, the first in code order is reported, whatever the dictionary's order")
    func firstWrongAttributeInCodeOrder() {
        func failure(_ attributes: [String: AttributeValue]) -> KeychainError? {
            do {
                _ = try MatchPlan(query: ItemQuery(itemClass: .genericPassword, attributes: attributes), caller: caller,
                                  hasher: store.hasher)
                return nil
            } catch { return error }
        }
        let unknown = ["zz01", "zz02", "zz03", "zz04", "zz05", "zz06", "zz07", "zz08"]
        var attributes: [String: AttributeValue] = ["acct": .string("a"), "svce": .string("s")]
        for code in unknown { attributes[code] = .string("x") }
        #expect(failure(attributes) == .noSuchAttribute("zz01"))
        attributes["agrp"] = .string("com.example.other")
        #expect(failure(attributes) == .missingEntitlement(group: "com.example.other"))
        attributes["aaaa"] = .string("x")
        #expect(failure(attributes) == .noSuchAttribute("aaaa"))
    }

    @Test("plans of different shapes, one after another, each get their own statements")
    func statementsOfAlternatingShapes() throws {
        let genericPassword = "class = \(ItemClass.genericPassword.storageCode)"
        let internetPassword = "class = \(ItemClass.internetPassword.storageCode)"
        // Each query with the terms its statements must have and must not.
        let queries: [(ItemQuery, has: [String], lacks: [String])] = [
            (ItemQuery(itemClass: .genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")]),
             ["acct = ?", "svce = ?", genericPassword], ["srvr"]),
            (ItemQuery(itemClass: .genericPassword, attributes: ["svce": .string("s")]),
             ["svce = ?", genericPassword], ["acct", "srvr"]),
            (ItemQuery(itemClass: .internetPassword, attributes: ["srvr": .string("h")]),
             ["srvr = ?", internetPassword], ["acct", "svce"]),
        ]
        for _ in 0..<3 {
            for (query, has, lacks) in queries {
                let statements = try MatchPlan(query: query, caller: caller, hasher: store.hasher).statements
                for sql in [statements.select, statements.selectWithSecret, statements.delete] {
                    // The terms, after the selected columns (which name every column).
                    let terms = sql[try #require(sql.range(of: " WHERE ")).upperBound...]
                    #expect(has.allSatisfy { terms.contains($0) }, "\(sql)")
                    #expect(!lacks.contains { terms.contains($0) }, "\(sql)")
                }
            }
        }
    }

    @Test func aPersistentReferenceIsARowIDLookup() throws {
        let reference = RowReference.reference(itemClass: .genericPassword, rowID: 42, nonce: RowReference.makeNonce())
        let detail = try plan(ItemQuery(itemClass: .genericPassword, persistentReference: reference))
        #expect(detail.contains("USING INTEGER PRIMARY KEY"), "\(detail)")
    }

    @Test func referencesRoundTripTheRowIDAndNonce() throws {
        for rowID: Int64 in [1, 4_095, 4_096, 1 << 40, RowReference.idLimit - 1] {
            let nonce = RowReference.makeNonce()
            let reference = RowReference.reference(itemClass: .key, rowID: rowID, nonce: nonce)
            let location = try #require(RowReference.location(of: reference))
            #expect(location.rowID == rowID)
            #expect(location.nonce == nonce)
            // RFC 9562: version 8, variant 0b10.
            #expect(reference.id.uuid.6 >> 4 == 8)
            #expect(reference.id.uuid.8 >> 6 == 0b10)
        }
    }
}
