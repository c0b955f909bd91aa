import KeychainCore

/// Why a sync command or the agent could not go on. Every message says what to do where
/// there is something to do; none holds a secret or an item's content.
package enum SyncFailure: Error, Sendable, CustomStringConvertible {
    /// The keychain said no (locked, missing, ...).
    case keychain(KeychainError)
    /// The server could not be used.
    case server(SyncServerError)
    /// This keychain is not in a sync group.
    case notConfigured
    /// This keychain is in a sync group already.
    case alreadyConfigured
    /// The group's records or rosters failed their checks.
    case rejected(SyncRejection)
    /// The user's input does not fit.
    case usage(String)
    /// Stored sync state that cannot be read.
    case damaged(String)
    /// This device was removed from the group.
    case removed
    /// No approval came in time.
    case notApproved
    /// The group's membership has two histories (SyncFork): this member stopped syncing it.
    case forked(SyncFork)

    /// The Keychain Services status it reports, when the keychain said no.
    package var keychainStatus: Int32? {
        if case .keychain(let error) = self { return error.status }
        return nil
    }

    package var description: String {
        switch self {
        case .keychain(let error): "the keychain: \(error)"
        case .server(let error): "the sync server: \(error)"
        case .notConfigured: "this keychain is not in a sync group (keychainctl sync setup, or sync join)"
        case .alreadyConfigured: "this keychain is in a sync group already (keychainctl sync status; sync leave first)"
        case .rejected(let rejection): "the sync group's data failed its checks: \(rejection)"
        case .usage(let text): text
        case .damaged(let text): text
        case .removed: "this device was removed from its sync group; its items stay here but no longer sync (keychainctl sync leave, then sync join)"
        case .forked(let fork): fork.summary
        case .notApproved: "no member approved this device in time; run keychainctl sync join again, or approve it and run keychainctl sync run"
        }
    }
}
