import Logging

/// The library's logger. Messages name operations, statuses and paths; never an item's
/// secret or attribute values.
let keychainLogger = Logger(label: "swift-keychain")
