import GRDB

extension KeychainError {
    /// The status for a failure from the database or from our own code inside a database
    /// closure. Logged with the SQLite code and never with statement arguments.
    static func from(_ error: any Error, during operation: String) -> KeychainError {
        if let error = error as? KeychainError { return error }
        guard let error = error as? DatabaseError else {
            keychainLogger.error("keychain \(operation) failed: \(type(of: error))")
            return .io("unexpected failure during \(operation)")
        }
        let mapped: KeychainError = switch error.resultCode {
        case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE: .duplicateItem
        case .SQLITE_CONSTRAINT: .notAvailable("the keychain database breaks its own constraints")
        case .SQLITE_FULL: .diskFull
        case .SQLITE_READONLY: .readOnly
        case .SQLITE_BUSY, .SQLITE_LOCKED: .notAvailable("the keychain database stayed busy")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .notAvailable("the keychain database is damaged or is not a keychain")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: .notAvailable("the keychain database cannot be opened")
        default: .io("SQLite error \(error.extendedResultCode.rawValue)")
        }
        if mapped != .duplicateItem {
            keychainLogger.error(
                "keychain \(operation) failed",
                metadata: ["sqlite": "\(error.extendedResultCode.rawValue)", "status": "\(mapped.status)"])
        }
        return mapped
    }
}
