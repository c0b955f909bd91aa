import Foundation

// The standard keys of a bundle's information property list, which Linux Foundation does not
// declare. Wrappers read the application's identifier with
// `Bundle.main.infoDictionary?[kCFBundleIdentifierKey as String]`.

/// The bundle's identifier, such as `com.example.app`: `CFBundleIdentifier`.
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString! = "CFBundleIdentifier"
/// The bundle's short name: `CFBundleName`.
nonisolated(unsafe) public let kCFBundleNameKey: CFString! = "CFBundleName"
/// The bundle's build version: `CFBundleVersion`.
nonisolated(unsafe) public let kCFBundleVersionKey: CFString! = "CFBundleVersion"
/// The name of the bundle's executable: `CFBundleExecutable`.
nonisolated(unsafe) public let kCFBundleExecutableKey: CFString! = "CFBundleExecutable"
/// The version of the information property list's format: `CFBundleInfoDictionaryVersion`.
nonisolated(unsafe) public let kCFBundleInfoDictionaryVersionKey: CFString! = "CFBundleInfoDictionaryVersion"
