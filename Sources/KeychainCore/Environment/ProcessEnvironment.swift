import Foundation

/// The process's environment variables that the settings read once per process use (the
/// keychains' folder and access groups, the machine secret's place, the machine id's file),
/// read once.
///
/// Only these names are read, each with `getenv`: `ProcessInfo.processInfo.environment`
/// decodes every variable of the process into a new dictionary, which cost a fresh
/// `keychainctl` 1.6% of its instructions. A setting that reads another variable from
/// ``variables`` must add its name to ``names`` (ProcessEnvironmentTests compares each
/// setting with the one the whole environment gives).
package enum ProcessEnvironment {
    /// The variables the settings read: XDGFolder's, `HOME` (its fallback),
    /// CallerIdentity's, MachineID's and KeychainPasswordFile's.
    static let names = ["HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "KEYCHAIN_ACCESS_GROUPS", "KEYCHAIN_MACHINE_ID_FILE",
                        "KEYCHAIN_PASSWORD_FILE", "CREDENTIALS_DIRECTORY"]

    package static let variables: [String: String] = {
        var variables: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        return variables
    }()
}
