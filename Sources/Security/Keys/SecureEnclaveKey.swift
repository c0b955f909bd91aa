import Foundation
@_implementationOnly import KeychainCore

/// What guards the use of a private key with an access control: a Secure Enclave-style key's
/// (`kSecAttrTokenID` `kSecAttrTokenIDSecureEnclave`), whose private part also never leaves the
/// library, or a stored software key's. Using the key first asks for what its access control
/// demands.
///
/// Linux has no Secure Enclave. Where a TPM 2.0 is present (``TrustedPlatformModule``), the
/// private key is made in it and never leaves it: the key holds only the TPM's blob
/// (``TPMHeldKey``), which no other TPM can load. Otherwise the honest equivalent: the
/// private key of a stored one is sealed under a ThisDeviceOnly class key, bound to this
/// machine's secret, so a copy of the keychain folder elsewhere cannot open it; that sealing
/// key lives on this machine, not in hardware. Either way no call hands back its bytes
/// (``SecKeyCopyExternalRepresentation(_:_:)`` fails, `kSecReturnData` gives none, archives
/// and PKCS #12 exports leave it out).
struct KeyUseBinding: @unchecked Sendable {
    // @unchecked: the context is an `LAContext`, which Apple's API lets any thread use and
    // which serializes its own state; this value only keeps it and calls it.

    /// The access control the key was made with, nil when it was given none.
    let accessControl: SecAccessControl?
    /// How a use of the key asks for the user: the `kSecUseAuthenticationContext`,
    /// `kSecUseOperationPrompt` and `kSecUseAuthenticationUI` of the call that made or found
    /// the key, as Apple's token keys keep them (SecCTKKey.c, SecItemAuthCopyParams).
    let authentication: AuthenticationOptions

    /// The reason shown when the caller gave no `kSecUseOperationPrompt`.
    static let defaultReason = "A program wants to use a private key protected by your presence in your keychain."

    /// Proves what the access control asks before the private key is used: nothing for none
    /// or `.privateKeyUsage` alone; the user's presence (through the context given, else
    /// through ``UserPresence``) for `.userPresence` or `.devicePasscode`; errSecAuthFailed for
    /// constraints that only biometry, a watch or a companion device could meet.
    func proveUse() throws(KeyFailure) {
        guard let accessControl, accessControl.requiresUserPresence else { return }
        guard accessControl.presenceCanBeProven else {
            throw KeyFailure(.authFailed, "the key's access control needs biometry, a watch or a companion device, which Linux does not have")
        }
        let reason = authentication.prompt ?? Self.defaultReason
        let allowPrompt = authentication.interface == .allow
        let outcome: Result<Void, PresenceFailure>
        if let context = authentication.context {
            outcome = context.proveUserPresence(reason: reason, allowPrompt: allowPrompt)
        } else if allowPrompt {
            outcome = UserPresence.prove(reason: reason)
        } else {
            outcome = .failure(.notInteractive)
        }
        if case .failure(let failure) = outcome {
            throw KeyFailure(code: failure.keychainError.status, Self.message(for: failure))
        }
    }

    /// What a failure to prove presence says to the caller.
    private static func message(for failure: PresenceFailure) -> String {
        switch failure {
        case .authenticationFailed: "the key needs the user's presence, and the password given was wrong"
        case .cancelled: "the key needs the user's presence, and the user cancelled the prompt"
        case .notInteractive:
            "the key needs the user's presence, and there is no one to ask (no terminal, no KEYCHAIN_ASKPASS agent, or interaction not allowed)"
        case .unavailable(let reason): "the key needs the user's presence, which cannot be proven here: \(reason)"
        }
    }
}

/// The data a stored Secure Enclave-style private key keeps: a marker, then the key's
/// external representation, or for a key held in a TPM another marker, then its
/// ``TPMHeldKey/storedForm``. The store seals it like any secret, under the item's
/// ThisDeviceOnly class key; the marker tells the library, even from the data alone (a search
/// that asks for data only gets no attributes), that these bytes must not be handed back.
enum SecureEnclaveKeyData {
    private static let marker = Data("swift-keychain secure-enclave-key 1\n".utf8)
    private static let tpmMarker = Data("swift-keychain tpm-key 1\n".utf8)

    /// The data to store for `material`.
    static func stored(_ material: KeyMaterial) -> Data {
        if case .tpmPrivate(let key) = material { return tpmMarker + key.storedForm }
        return marker + material.externalRepresentation
    }

    /// Whether stored data is a Secure Enclave-style key's, of either form.
    static func isKeyData(_ data: Data) -> Bool {
        data.starts(with: marker) || data.starts(with: tpmMarker)
    }

    /// The key inside stored data of the family and class its item records; nil when the data
    /// is not a Secure Enclave-style key's or not such a key (a TPM's is a P-256 private key).
    static func material(in data: Data, family: KeyMaterial.Family, isPrivate: Bool) -> KeyMaterial? {
        if data.starts(with: tpmMarker) {
            guard family == .ellipticCurve, isPrivate,
                  let key = TPMHeldKey(storedForm: Data(data.dropFirst(tpmMarker.count))) else { return nil }
            return .tpmPrivate(key)
        }
        guard data.starts(with: marker) else { return nil }
        return try? KeyMaterial(externalRepresentation: Data(data.dropFirst(marker.count)), family: family,
                                isPrivate: isPrivate)
    }

    /// What `kSecReturnData` gives for an item's data: nothing for a Secure Enclave-style
    /// key (or an identity whose key is one), as Apple's token keys give no key material;
    /// the data itself for anything else.
    static func returnable(_ data: Data?, of itemClass: ItemClass) -> Data? {
        guard let data, itemClass == .key || itemClass == .identity, isKeyData(data) else { return data }
        return nil
    }
}

extension SecKey {
    /// Whether the key's private part may leave the library: false for Secure Enclave-style
    /// private keys.
    var isExportable: Bool { secureEnclave == nil }

    /// The key's material for export (``SecKeyCopyExternalRepresentation(_:_:)``, PKCS #12):
    /// errSecUnimplemented for a Secure Enclave-style key, with Apple's message.
    func exportableMaterial() throws(KeyFailure) -> KeyMaterial {
        guard isExportable else { throw KeyFailure(.unimplemented, "export not implemented for key \(self)") }
        return material
    }

    /// The key's material for a private operation (sign, decrypt, key exchange) with
    /// `algorithm`: for a Secure Enclave-style key, or a stored key whose access control needs
    /// the user, once that access control is satisfied. An
    /// algorithm the key cannot run asks nobody: the operation then fails with its own status
    /// (from the same ``KeyOperation`` table), as it does for any key.
    func materialForPrivateUse(_ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) throws(KeyFailure) -> KeyMaterial {
        if let binding = secureEnclave ?? accessGuard, (try? KeyOperation.scheme(algorithm, operation, material)) != nil {
            try binding.proveUse()
        }
        return material
    }

    /// The data a keychain item of this key stores: its external representation, or for a
    /// Secure Enclave-style key its ``SecureEnclaveKeyData``.
    var storedData: Data {
        secureEnclave == nil ? material.externalRepresentation : SecureEnclaveKeyData.stored(material)
    }
}
