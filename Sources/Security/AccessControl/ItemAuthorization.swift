import Foundation
@_implementationOnly import KeychainCore

/// Decides whether the secrets of items with an access control may be handed out, asking the
/// user as the call allows: once per call for presence, once per call for an application
/// password, through the call's `LAContext` when it gives one.
///
/// What this enforces is a check in the library, not a hardware boundary: it makes code that
/// uses the keychain API ask the user; it cannot stop code running as the same user that reads
/// the store some other way while the keychain is unlocked. Application-password items are the
/// exception: their secret is sealed under a key derived from that password.
struct ItemAuthorization {
    private let options: AuthenticationOptions
    private var presenceProven = false
    private var password: SecretBytes?

    init(_ options: AuthenticationOptions) {
        self.options = options
    }

    /// The items of a search whose secrets the caller may have, with application-password
    /// secrets opened. Where the call may not ask (`kSecUseAuthenticationUIFail` or
    /// `...Skip`), only what the call's context already holds serves: otherwise Fail fails
    /// the call with errSecInteractionNotAllowed and Skip leaves the item out. Items whose
    /// secret was not read pass as they are: attributes never need the user.
    mutating func authorize(_ items: [FoundItem]) throws(KeychainError) -> [FoundItem] {
        // Nearly every search finds no secret with an access control: its items pass as
        // they are, without a new array.
        if !items.contains(where: { $0.accessControlFlags != nil }) { return items }
        var authorized: [FoundItem] = []
        authorized.reserveCapacity(items.count)
        for item in items {
            // A Secure Enclave-style key asks when it is used, and its data is never handed out.
            guard let raw = item.accessControlFlags, let data = item.data,
                  !SecureEnclaveKeyData.isKeyData(data) else {
                authorized.append(item)
                continue
            }
            let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(UInt64(bitPattern: raw)))
            let accessControl = SecAccessControl(protection: "", flags: flags)
            do {
                if accessControl.requiresUserPresence {
                    try provePresence(for: accessControl)
                }
                if accessControl.requiresApplicationPassword {
                    authorized.append(item.replacingData(try ApplicationPasswordSeal.open(data, password: applicationPassword())))
                } else {
                    authorized.append(item)
                }
            } catch .interactionNotAllowed where options.interface == .skip {
                continue
            }
        }
        return authorized
    }

    /// Proves the user's presence once for this call: through the call's context, which may
    /// already hold a proof, or by asking when the call allows it. Constraints that need
    /// biometry, a watch or a companion alone cannot be met here: errSecAuthFailed, as on a
    /// Mac without Touch ID (errSecInteractionNotAllowed where the call may not ask).
    mutating func provePresence(for accessControl: SecAccessControl) throws(KeychainError) {
        guard !presenceProven else { return }
        let mayAsk = options.interface == .allow
        guard accessControl.presenceCanBeProven else { throw mayAsk ? .authFailed : .interactionNotAllowed }
        let outcome: Result<Void, PresenceFailure> = if let context = options.context {
            context.proveUserPresence(reason: options.prompt, allowPrompt: mayAsk)
        } else if mayAsk {
            UserPresence.prove(reason: options.prompt ?? AuthenticationOptions.defaultReason)
        } else {
            .failure(.notInteractive)
        }
        if case .failure(let failure) = outcome { throw failure.keychainError }
        presenceProven = true
    }

    /// The application password for this call: the context's credential, or asked for once.
    mutating func applicationPassword() throws(KeychainError) -> SecretBytes {
        if let password { return password }
        if let given = options.context?.applicationPassword() {
            password = given
            return given
        }
        if options.context?.interactionNotAllowed == true || options.interface != .allow {
            throw .interactionNotAllowed
        }
        switch UserPresence.askSecret(prompt: options.prompt ?? "Application password for a keychain item:") {
        case .success(let asked):
            password = asked
            return asked
        case .failure(let failure):
            throw failure.keychainError
        }
    }
}
