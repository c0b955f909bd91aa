import Foundation
import Logging

/// Who is calling: the keychain access groups the process holds. The first is where new
/// items go when they name no group; a search that names none covers them all.
///
/// On Linux any process of the same user can read the keychain files, so groups separate
/// the items of cooperating programs; they are not a wall against a hostile one.
package struct CallerIdentity: Sendable, Hashable {
    package let accessGroups: [String]

    package init(accessGroups: [String]) {
        // Every call makes one: a short list that is already clean (no empty or repeated
        // group, what nearly every caller has) is kept as it is, without building a set.
        if accessGroups.count <= 8, accessGroups.indices.allSatisfy({ index in
            !accessGroups[index].isEmpty && !accessGroups[..<index].contains(accessGroups[index])
        }) {
            self.accessGroups = accessGroups
            return
        }
        var seen = Set<String>()
        self.accessGroups = accessGroups.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Apple's special access group: a caller that holds `*` may use every access group, as
    /// Apple's own `security` tool does. It is a permission, not a group items can be in.
    package static let everyGroup = "*"

    /// Whether the caller holds ``everyGroup``.
    var holdsEveryGroup: Bool { accessGroups.contains(Self.everyGroup) }

    /// Whether the caller may name `group` in a query or an add.
    package func holds(_ group: String) -> Bool {
        group != Self.everyGroup && (holdsEveryGroup || accessGroups.contains(group))
    }

    /// Where new items go when they name no group: the first group other than `*`.
    package var defaultGroup: String? { accessGroups.first { $0 != Self.everyGroup } }

    /// The groups of this process, from the first source that gives any:
    /// 1. `KEYCHAIN_ACCESS_GROUPS` in the environment, comma-separated;
    /// 2. `<executable>.entitlements` beside the executable, a property list whose
    ///    `keychain-access-groups` array lists them;
    /// 3. the application identifier: the bundle identifier where an Info.plist gives one,
    ///    else the executable's name.
    package static func ofCurrentProcess(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CallerIdentity {
        if let list = environment["KEYCHAIN_ACCESS_GROUPS"] {
            let groups = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let identity = CallerIdentity(accessGroups: groups)
            if !identity.accessGroups.isEmpty { return identity }
        }
        let executable = executableURL()
        let entitlements = URL(fileURLWithPath: executable.path + ".entitlements")
        if let groups = accessGroups(fromEntitlementsAt: entitlements), !groups.isEmpty {
            return CallerIdentity(accessGroups: groups)
        }
        if let bundleID = Bundle.main.bundleIdentifier, !bundleID.isEmpty {
            return CallerIdentity(accessGroups: [bundleID])
        }
        return CallerIdentity(accessGroups: [executable.lastPathComponent])
    }

    /// Reads `keychain-access-groups` from an entitlements property list; nil when there is
    /// no file, and nil with a logged warning when it cannot be read.
    static func accessGroups(fromEntitlementsAt url: URL) -> [String]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let contents = try? Data(contentsOf: url),
              let plist = try? PropertyListSerialization.propertyList(from: contents, format: nil),
              let dictionary = plist as? [String: Any],
              let groups = dictionary["keychain-access-groups"] as? [String]
        else {
            keychainLogger.warning(
                "ignoring entitlements file without a keychain-access-groups array of strings",
                metadata: ["path": "\(url.path)"])
            return nil
        }
        return groups
    }

    static func executableURL() -> URL {
        let link = "/proc/self/exe"
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: link) {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "unknown")
    }
}
