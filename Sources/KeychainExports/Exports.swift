// The `Keychain` module is the name apps import; the API lives in `SwiftKeychain`, so that
// the module and its main type, both once called `Keychain`, can be told apart:
// `SwiftKeychain.KeychainError` names the error type wherever a type `Keychain` is in scope.
@_exported import SwiftKeychain
