/// What the SQL of a plan depends on, apart from the values it binds.
struct PlanShape: Hashable {
    let classCode: Int
    let protection: Bool
    /// Which of ``StoredColumns/hashedAttributeCodes`` the query names: bit n for the n-th.
    let columns: UInt8
    /// How many identity hashes the query names (a whole primary key); nil for none.
    let identityCount: Int?
    /// Whether the candidates are read through ``AttributeIndexTable`` by one hash.
    let attributeIndex: Bool
    /// How many access groups the query covers; nil for all of them.
    let groupCount: Int?
    let reference: Bool
    /// The synchronizable filter; nil for a lookup by persistent reference, which ignores it.
    let synchronizable: SynchronizableFilter?

    /// The terms of the WHERE clause, in the order of the arguments.
    var whereClause: String {
        var conditions: [String] = []
        if protection { conditions.append("protection = ?") }
        for (index, code) in StoredColumns.hashedAttributeCodes.enumerated() where columns & 1 << index != 0 {
            if KeyLookupColumns.attributeCodes.contains(code) {
                // The rows not indexed yet are candidates too, read through the same index.
                conditions.append("\(code) IN (?, X'')")
            } else {
                // `IS NOT NULL` lets SQLite use the partial index on the column.
                conditions.append("\(code) = ? AND \(code) IS NOT NULL")
            }
        }
        if let identityCount {
            conditions.append("identity IN (\(Array(repeating: "?", count: identityCount).joined(separator: ", ")))")
        }
        if attributeIndex { conditions.append(AttributeIndexTable.candidateCondition) }
        // The class as a literal: SQLite uses a partial index (each class's key index) only
        // for a query whose terms repeat its WHERE clause. Group terms stay off the indexes:
        // every item of the caller matches them.
        conditions.append("class = \(classCode)")
        if let groupCount {
            conditions.append("+agrp IN (\(Array(repeating: "?", count: groupCount).joined(separator: ", ")))")
        }
        if reference { conditions.append("id = ? AND nonce = ?") }
        switch synchronizable {
        case .notSynchronizable: conditions.append("sync = 0")
        case .synchronizable: conditions.append("sync = 1")
        case .any, nil: break
        }
        return conditions.joined(separator: " AND ")
    }
}
