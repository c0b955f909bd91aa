import Foundation
@_implementationOnly import KeychainCore

/// What a call says about asking the user, for items whose access control needs them:
/// `kSecUseAuthenticationUI`, `kSecUseAuthenticationContext`, `kSecUseOperationPrompt` and the
/// older `kSecUseNoAuthenticationUI`.
struct AuthenticationOptions {
    /// `kSecUseAuthenticationUI`'s three values.
    enum Interface {
        /// Ask the user (the default).
        case allow
        /// Never ask: such an item fails the call with errSecInteractionNotAllowed.
        case fail
        /// Never ask: a search leaves such items out.
        case skip
    }

    var interface = Interface.allow
    /// The `LAContext` given, which may already hold the user's proof or an application password.
    var context: (any AuthenticationContext)?
    /// The reason shown in the prompt.
    var prompt: String?

    private static let interfaceKey = kSecUseAuthenticationUI as String
    private static let contextKey = kSecUseAuthenticationContext as String
    private static let promptKey = kSecUseOperationPrompt as String
    private static let allowValue = kSecUseAuthenticationUIAllow as String
    private static let failValue = kSecUseAuthenticationUIFail as String
    private static let skipValue = kSecUseAuthenticationUISkip as String

    static let keys: Set<String> = [interfaceKey, contextKey, promptKey, kSecUseNoAuthenticationUI as String]

    /// Reads one of ``keys``; a value of the wrong type or an unknown interface is errSecParam.
    mutating func read(_ value: Any, for key: String) throws(KeychainError) {
        switch key {
        case Self.interfaceKey:
            switch FoundationValues.string(value) {
            case Self.allowValue: interface = .allow
            case Self.failValue: interface = .fail
            case Self.skipValue: interface = .skip
            default: throw .param("kSecUseAuthenticationUI takes kSecUseAuthenticationUIAllow, Fail or Skip")
            }
        case Self.contextKey:
            guard let context = value as? any AuthenticationContext else {
                throw .param("kSecUseAuthenticationContext takes an LAContext")
            }
            self.context = context
        case Self.promptKey:
            guard let prompt = FoundationValues.string(value) else { throw .param("kSecUseOperationPrompt takes a string") }
            self.prompt = prompt
        default: // kSecUseNoAuthenticationUI
            if try FoundationValues.flag(value, key: key) { interface = .fail }
        }
    }

    /// The reason given in a prompt when the caller gave none.
    static let defaultReason = "A program wants to use an item protected by your presence in your keychain."
}
