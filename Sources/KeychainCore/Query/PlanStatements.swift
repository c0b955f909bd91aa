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

    /// The statements built, and the shape asked for last with its statements, compared
    /// before the dictionary is looked in: a program repeats one kind of query, and
    /// comparing a shape costs a fraction of hashing it.
    private static let built = Mutex<(all: [PlanShape: PlanStatements], last: (shape: PlanShape, statements: PlanStatements)?)>(
        ([:], nil))
    /// Shapes differ by the attributes named and the number of groups: a handful per app.
    /// Beyond the bound, a shape's statements are built each time.
    private static let builtLimit = 512

    static func of(_ shape: PlanShape) -> PlanStatements {
        let found = built.withLock { built -> PlanStatements? in
            if let last = built.last, last.shape == shape { return last.statements }
            guard let statements = built.all[shape] else { return nil }
            built.last = (shape, statements)
            return statements
        }
        if let found { return found }
        let statements = PlanStatements(whereClause: shape.whereClause)
        built.withLock { built in
            if built.all.count < builtLimit { built.all[shape] = statements }
            built.last = (shape, statements)
        }
        return statements
    }
}
