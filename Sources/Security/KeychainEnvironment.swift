import Foundation
@_implementationOnly import KeychainCore
import Synchronization

/// Linux only: which keychain the `SecItem` functions use and which access groups the
/// caller holds.
///
/// By default that is the `login` keychain under `$XDG_DATA_HOME/keychains` (or
/// `~/.local/share/keychains`) and the groups of this process (see ``accessGroups``), read
/// once when first needed. Tests and tools can run code against another keychain or as
/// another identity with `withValue(_:operation:)`, synchronous or `async`; the change holds
/// for the operation and the tasks it creates, not for other threads.
public struct KeychainEnvironment: Sendable, Hashable {
    /// The folder that holds the keychain database.
    public var directory: URL
    /// The keychain's name; its database is `<name>.keychain-db`.
    public var keychainName: String
    /// The access groups the caller holds; the first is the default for new items.
    ///
    /// For the process they come from `KEYCHAIN_ACCESS_GROUPS` (comma-separated), else
    /// from `keychain-access-groups` in `<executable>.entitlements`, else from the bundle
    /// identifier or the executable's name.
    public var accessGroups: [String] {
        get { givenAccessGroups ?? Self.processAccessGroups }
        set { givenAccessGroups = newValue }
    }

    /// The groups given, or nil for the process's own, which are found when first asked
    /// for: most uses of the environment only need the keychain's place, and finding them
    /// (the executable's path, its entitlements file, the bundle) was most of the cost of a
    /// process's first look at the environment.
    private var givenAccessGroups: [String]?

    /// The access groups of this process, found once.
    private static let processAccessGroups: [String] =
        CallerIdentity.ofCurrentProcess(environment: ProcessEnvironment.variables).accessGroups

    /// The caller the groups make. Made when asked rather than stored: a stored core type
    /// would make this public struct's layout depend on the core, which clients in other
    /// packages must not need to load (see Package.swift, `Security`).
    var caller: CallerIdentity { CallerIdentity(accessGroups: accessGroups) }

    public init(directory: URL, keychainName: String = "login", accessGroups: [String]) {
        self.directory = directory
        self.keychainName = keychainName
        self.givenAccessGroups = accessGroups
    }

    /// The process's environment before its access groups are asked for.
    private init(processAt directory: URL, keychainName: String) {
        self.directory = directory
        self.keychainName = keychainName
        self.givenAccessGroups = nil
    }

    /// Equal when they name the same keychain and groups, whether the groups were given or
    /// are the process's.
    public static func == (lhs: KeychainEnvironment, rhs: KeychainEnvironment) -> Bool {
        lhs.directory == rhs.directory && lhs.keychainName == rhs.keychainName && lhs.accessGroups == rhs.accessGroups
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(directory)
        hasher.combine(keychainName)
        hasher.combine(accessGroups)
    }

    /// The environment of this process: the default keychain is `login`, or the one
    /// `SecKeychainSetDefault` chose.
    public static var process: KeychainEnvironment { processEnvironment.withLock { $0 } }

    private static let processEnvironment: Mutex<KeychainEnvironment> = {
        let directory = KeychainFiles.defaultDirectory(environment: ProcessEnvironment.variables)
        return Mutex(KeychainEnvironment(processAt: directory, keychainName: defaultKeychainName(in: directory)))
    }()

    /// The file in the keychains folder that names the default keychain, when it is not
    /// `login`.
    private static func defaultKeychainFile(in directory: URL) -> URL {
        directory.appendingPathComponent("default-keychain")
    }

    /// The default keychain's name recorded in `directory`, or `login`.
    ///
    /// The record is read as the library reads its own files (see `SecKeychainSetDefault`,
    /// which writes it 0600): a symbolic link, a FIFO, a device, another user's file, one
    /// others may read, or one longer than a name can be is not a record, and gives `login`
    /// with a warning in the log. Every process reads it at its first call: a link planted
    /// there must not choose another keychain, nor a huge file be read whole.
    public static func defaultKeychainName(in directory: URL) -> String {
        let path = defaultKeychainFile(in: directory).path
        let bytes: Data?
        do {
            bytes = try PrivateFile.read(path, limit: recordLimit, role: "default keychain record")
        } catch {
            securityLogger.warning("the default keychain record is not used; the default keychain is login",
                           metadata: ["reason": "\(error)"])
            return "login"
        }
        let recorded = bytes.flatMap { String(data: $0, encoding: .utf8) }?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let recorded, !recorded.isEmpty, !recorded.contains("/") else { return "login" }
        return recorded
    }

    /// More than any keychain name and its newline: a file name is at most 255 bytes.
    private static let recordLimit = 1024

    /// Records the default keychain of `directory` (nil: `login`), for this process and
    /// those that start later.
    static func setDefaultKeychainName(_ name: String?, in directory: URL) throws(KeychainError) {
        let file = defaultKeychainFile(in: directory)
        do {
            if let name, name != "login" {
                // Written and synced under another name, then renamed: a power cut leaves
                // the old choice or the new one, never an empty file.
                try PrivateFile.install(Data((name + "\n").utf8), at: file.path, role: "default keychain record",
                                        replacing: true)
            } else if FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.removeItem(at: file)
            }
        } catch {
            throw .io("cannot record the default keychain in \(directory.path)")
        }
        processEnvironment.withLock { environment in
            if environment.directory.standardizedFileURL == directory.standardizedFileURL {
                environment.keychainName = name ?? "login"
            }
        }
    }

    @TaskLocal private static var override: KeychainEnvironment?

    /// The environment the `SecItem` functions use now.
    public static var current: KeychainEnvironment { override ?? process }

    /// Runs `operation` with `SecItem` calls going to `environment`.
    public static func withValue<Result>(
        _ environment: KeychainEnvironment, operation: () throws -> Result
    ) rethrows -> Result {
        try $override.withValue(environment, operation: operation)
    }

    /// Runs an async `operation` with `SecItem` calls going to `environment`.
    public static func withValue<Result>(
        _ environment: KeychainEnvironment, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $override.withValue(environment, operation: operation)
    }

    package var files: KeychainFiles { KeychainFiles(directory: directory, name: keychainName) }

    /// Apple's special access group `*`: a caller holding it sees, changes and deletes the
    /// items of every group, as the user's own tools do.
    package static let everyAccessGroup = CallerIdentity.everyGroup

    /// Where new items go when they name no group: the first group other than `*`.
    package var defaultAccessGroup: String? { caller.defaultGroup }
}
