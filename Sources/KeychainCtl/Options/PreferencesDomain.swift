import ArgumentParser

/// The `-d` of `list-keychains` and `default-keychain`: on macOS, whose keychains (the
/// user's, the system's, ...). Linux has only the user's: the other domains are accepted and
/// have no keychains.
enum PreferencesDomain: String, ExpressibleByArgument, CaseIterable {
    case user, system, common, dynamic

    /// A domain or any prefix of its name, as `security` reads `-d s` as `system`.
    init?(argument: String) {
        guard !argument.isEmpty, let domain = Self.allCases.first(where: { $0.rawValue.hasPrefix(argument) })
        else { return nil }
        self = domain
    }
}
