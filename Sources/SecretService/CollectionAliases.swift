import Foundation
import KeychainCore

/// The aliases clients make with SetAlias, beside the three the provider keeps itself
/// (`default`, `login` and `session`, see ``SecretServiceProvider/aliasTarget(_:)``).
///
/// Each names a collection by its keychain's name (or `session`, the session collection),
/// and is kept in the file `secret-service-aliases` of the keychain folder, next to the
/// record of the default keychain, so that aliases outlive the provider as `default` does.
/// The file is read at each use and replaced whole, atomically, at each change: a power cut
/// leaves the old aliases or the new ones. An alias of a keychain that was deleted names
/// nothing until a keychain of that name exists again.
struct CollectionAliases: Sendable {
    /// The keychain folder.
    let directory: URL

    static let fileName = "secret-service-aliases"
    private static let role = "Secret Service alias record"
    /// The longest alias name, in bytes.
    static let nameLimit = 255
    /// How many aliases may be kept: each is a line of a small file, read at each use.
    static let countLimit = 1000
    /// The largest record read: room for ``countLimit`` aliases of long names.
    private static let fileLimit = 1 << 20

    private var path: String { directory.appendingPathComponent(Self.fileName).path }

    /// Whether `name` can be an alias: 1 to ``nameLimit`` ASCII letters, digits and `_`,
    /// the characters a D-Bus object path element allows, so that
    /// `/org/freedesktop/secrets/aliases/<name>` is a path.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= nameLimit && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// InvalidArgs, saying what an alias is, unless `name` can be one (``isValidName(_:)``).
    static func checkName(_ name: String) throws(BusFailure) {
        guard isValidName(name) else {
            throw .invalidArguments("'\(name)' cannot be an alias: an alias is 1 to \(nameLimit) letters, digits "
                                    + "and _, the characters of a D-Bus object path element")
        }
    }

    /// Every alias and the keychain it names; empty when none was ever set.
    func all() throws(BusFailure) -> [String: String] {
        let bytes: Data?
        do throws(KeychainError) {
            bytes = try PrivateFile.read(path, limit: Self.fileLimit, role: Self.role)
        } catch {
            throw .failed("cannot read the aliases: \(error)")
        }
        guard let bytes else { return [:] }
        guard let aliases = try? JSONDecoder().decode([String: String].self, from: bytes) else {
            throw .failed("the \(Self.role) \(path) is damaged; remove it to forget every alias other than default")
        }
        return aliases
    }

    /// The keychain the alias `name` names, nil when it names none.
    func target(of name: String) throws(BusFailure) -> String? {
        guard Self.isValidName(name) else { return nil }
        return try all()[name]
    }

    /// Makes the alias `name` name the keychain `target`, or removes it (nil).
    func set(_ name: String, to target: String?) throws(BusFailure) {
        var aliases = try all()
        guard aliases[name] != target else { return }
        aliases[name] = target
        guard aliases.count <= Self.countLimit else {
            throw .limitsExceeded("at most \(Self.countLimit) aliases are kept; remove some first (SetAlias to \"/\")")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let bytes = try encoder.encode(aliases)
            try PrivateFolder.prepare(directory, role: "keychain folder")
            try PrivateFile.install(bytes, at: path, role: Self.role, replacing: true)
        } catch {
            throw .failed("cannot record the alias \(name): \(error)")
        }
    }
}
