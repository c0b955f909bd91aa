import Foundation
import KeychainCore
import Security

/// The keychain a subcommand works on, from its `[keychain]` argument, and the one place
/// that points the SecItem calls at it.
///
/// - no argument: `login` in the default folder (`$XDG_DATA_HOME/keychains`, else
///   `~/.local/share/keychains`), created on first use;
/// - a name, `foo`, `foo.keychain` or `foo.keychain-db`: `<folder>/foo.keychain-db`;
/// - a path (anything with a `/`): that file, with `.keychain-db` added when it ends
///   otherwise, as `security` opens `login.keychain` as `login.keychain-db`.
///
/// A keychain named explicitly must exist (errSecNoSuchKeychain otherwise), so that a
/// mistyped name is an error rather than a new, empty keychain; `login` in the default
/// folder is the exception, as it is created on first use.
///
/// Today this goes through `KeychainEnvironment.withValue`; when `SecKeychainOpen` and
/// `kSecUseKeychain` arrive, only this type changes.
struct KeychainLocation {
    let directory: URL
    let name: String
    /// The argument as given, for messages.
    let argument: String?
    /// Whether this is `login` in the default folder, which is created on first use.
    private let createdOnFirstUse: Bool

    init(argument: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.argument = argument
        let defaultDirectory = KeychainFiles.defaultDirectory(environment: environment)
        guard let argument, !argument.isEmpty else {
            (directory, name, createdOnFirstUse) = (defaultDirectory, "login", true)
            return
        }
        var file = argument.contains("/") ? URL(fileURLWithPath: argument) : defaultDirectory.appendingPathComponent(argument)
        if file.pathExtension == "keychain" { file.deletePathExtension() }
        let base = file.lastPathComponent
        directory = file.deletingLastPathComponent()
        name = base.hasSuffix(".keychain-db") ? String(base.dropLast(".keychain-db".count)) : base
        createdOnFirstUse = name == "login" && directory.standardizedFileURL == defaultDirectory.standardizedFileURL
    }

    /// The database file, as the attribute blocks name it.
    var path: String { KeychainFiles(directory: directory, name: name).database.path }

    /// Runs `body` with the SecItem calls going to this keychain, as a caller holding
    /// `accessGroups`.
    func run<Result>(accessGroups: [String], _ body: () throws -> Result) throws -> Result {
        if !createdOnFirstUse, !FileManager.default.fileExists(atPath: path) {
            throw ToolFailure.status(errSecNoSuchKeychain, during: "SecKeychainOpen \(argument ?? name)")
        }
        let environment = KeychainEnvironment(directory: directory, keychainName: name, accessGroups: accessGroups)
        return try KeychainEnvironment.withValue(environment, operation: body)
    }
}
