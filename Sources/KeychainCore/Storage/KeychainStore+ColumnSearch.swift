import Foundation

extension KeychainStore {
    /// The persistent references of the items `query` matches, when the lookup columns alone
    /// decide every match (equality on indexed attributes only), found without opening any
    /// item: so also while their class is locked, when ``find(_:by:)`` fails with
    /// errSecInteractionNotAllowed. Nil
    /// when the query needs items opened. For a provider that must name locked items (the
    /// Secret Service's SearchItems); never a secret or an attribute's value.
    package func referencesByColumns(_ query: ItemQuery, by caller: CallerIdentity) throws(KeychainError)
        -> [PersistentReference]?
    {
        let plan = try MatchPlan(query: query, caller: caller, hasher: hasher)
        guard plan.columnsDecide else { return nil }
        return try Self.oneStatement(database, during: "search by columns") { db in
            var found: [PersistentReference] = []
            try plan.forEachRow(in: db, withSecret: false) { row in
                found.append(RowReference.reference(itemClass: query.itemClass, rowID: row.id, nonce: row.nonce))
                return true
            }
            return found
        }
    }
}
