import Keychain
import Testing

/// The KeychainError a throwing call threw, or nil (and a recorded issue) if it did not.
func keychainError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> KeychainError? {
    #expect(throws: KeychainError.self, sourceLocation: sourceLocation) { try body() }
}
