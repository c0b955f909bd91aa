import Foundation

/// This process's environment variables, read once for the settings that are read once per
/// process (the keychains' folder and access groups, the machine secret's place, the machine
/// id's file): each read of `ProcessInfo.processInfo.environment` copies every variable into
/// a new dictionary, which cost a fresh `keychainctl` 1.3% of its instructions a read.
package enum ProcessEnvironment {
    package static let variables: [String: String] = ProcessInfo.processInfo.environment
}
