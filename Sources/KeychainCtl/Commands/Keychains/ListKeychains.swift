import ArgumentParser
import Security

/// `list-keychains`: the keychain search list, as `security` prints it.
struct ListKeychains: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-keychains",
        abstract: "Show the keychains.",
        discussion: """
            One line per keychain, its path in quotes: the default keychain first (even before \
            its first use creates it), then every other keychain in $XDG_DATA_HOME/keychains, by \
            name. macOS's -s, which changes the search list, has no counterpart: every keychain \
            of the folder is in it.
            """)

    @Option(name: .customShort("d"),
            help: ArgumentHelp("Whose keychains: user (the default); system, common and dynamic have none on Linux.",
                               valueName: "domain"))
    var domain: PreferencesDomain = .user

    func run() throws {
        guard domain == .user else { return }
        var list: CFArray?
        try check(SecKeychainCopySearchList(&list), "SecKeychainCopySearchList")
        ConsoleOutput.write((list as? [SecKeychain] ?? []).map(KeychainPathLine.text).joined())
    }
}
