import ArgumentParser
import Security

/// `import-archive --on-duplicate`: what happens to an archived item whose identity the
/// keychain already holds (``SecArchiveImportPolicy``).
enum DuplicatePolicy: String, ExpressibleByArgument, CaseIterable {
    /// Import nothing, and say how many items collide.
    case fail
    /// Keep the keychain's item and skip the archived one.
    case keep
    /// Replace the keychain's item with the archived one.
    case replace

    var importPolicy: SecArchiveImportPolicy {
        switch self {
        case .fail: .failOnDuplicate
        case .keep: .keepExisting
        case .replace: .replaceExisting
        }
    }
}
