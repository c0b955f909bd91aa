import Logging

/// The log of the `Security` module's own decisions (a failed call's reason at debug level, a
/// record it refused to use), beside the storage core's `swift-keychain` log.
let securityLogger = Logger(label: "swift-keychain.Security")
