import Synchronization

/// The statements of one shape of plan, built once per shape: a call then pays a lookup
/// rather than building and hashing its SQL (measured: a fifth of a find).
struct PlanStatements: Sendable {
    let select: String
    let selectWithSecret: String
    let delete: String

    init(whereClause: String) {
        let columns = StoredRow.selectedColumns
        select = "SELECT \(columns), NULL FROM item WHERE \(whereClause) ORDER BY id"
        selectWithSecret = "SELECT \(columns), secret FROM item WHERE \(whereClause) ORDER BY id"
        delete = "DELETE FROM item WHERE \(whereClause)"
    }

    private static let built = Mutex<[PlanShape: PlanStatements]>([:])
    /// Shapes differ by the attributes named and the number of groups: a handful per app.
    /// Beyond the bound, a shape's statements are built each time.
    private static let builtLimit = 512

    static func of(_ shape: PlanShape) -> PlanStatements {
        if let statements = built.withLock({ $0[shape] }) { return statements }
        let statements = PlanStatements(whereClause: shape.whereClause)
        built.withLock { built in
            if built.count < builtLimit { built[shape] = statements }
        }
        return statements
    }
}
