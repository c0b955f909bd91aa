import GRDB
import GRDBSQLite

/// The transaction of one group commit batch and the savepoint of each of its changes, run
/// through cached statements (``DirectStatement``).
///
/// GRDB's `inTransaction` and `inSavepoint` parse BEGIN, COMMIT, SAVEPOINT and RELEASE again
/// on every use, and the leader of a batch runs them while every writer of the batch waits:
/// a batch of four parsed ten statements. Cached, each is a reset and a step. None of them
/// goes through GRDB, which reads whether a transaction is open from SQLite itself
/// (`sqlite3_get_autocommit`); every path below leaves none open.
struct BatchTransaction {
    let db: Database

    /// Runs `body` in an IMMEDIATE transaction and commits it; rolls it back and rethrows
    /// when `body` or the commit fails.
    static func run(in db: Database, _ body: (BatchTransaction) throws -> Void) throws {
        let transaction = BatchTransaction(db: db)
        try transaction.step("BEGIN IMMEDIATE")
        do {
            try body(transaction)
            try transaction.step("COMMIT")
        } catch {
            transaction.rollbackIfOpen()
            throw error
        }
    }

    /// Whether the transaction is still open: SQLite rolls back a whole transaction by
    /// itself after some errors (a full disk, an I/O error) of any statement in it.
    var isOpen: Bool { sqlite3_get_autocommit(db.sqliteConnection) == 0 }

    /// Runs `change` in a savepoint: a change that throws is undone alone, and its error is
    /// rethrown. When the error ended the whole transaction, ``TransactionLost`` is thrown
    /// instead, so that the batch's other changes fail too rather than seem applied.
    func savepoint(_ change: () throws -> Void) throws {
        try step("SAVEPOINT change")
        do {
            try change()
        } catch {
            guard isOpen else { throw TransactionLost(cause: error) }
            try step("ROLLBACK TO change")
            try step("RELEASE change")
            throw error
        }
        try step("RELEASE change")
    }

    /// The error of a change after which SQLite had rolled back the whole transaction.
    struct TransactionLost: Error {
        let cause: any Error
    }

    private func step(_ sql: String) throws {
        try DirectStatement(db, sql: sql, values: []).execute()
    }

    /// The rare path goes through GRDB, as `inTransaction` would: its rollback ignores an
    /// interruption, and the caller reports the first error rather than the rollback's.
    private func rollbackIfOpen() {
        try? db.rollback()
    }
}
