import Foundation
@_implementationOnly import KeychainCore

/// Secure Enclave-style keys in the TPM the core selects (``TrustedPlatformModule``, which
/// also seals keychains' device keys), with SecKey's statuses.
extension TrustedPlatformModule {
    /// The TPM a key held in one signs with: the selected one.
    ///
    /// - Throws: errSecNotAvailable when none is.
    static func configured() throws(KeyFailure) -> TrustedPlatformModule {
        guard let selected = selected() else {
            throw KeyFailure(.notAvailable, "the key is held in a TPM, and no TPM is available (\(defaultDevice) cannot be opened, and \(environmentVariable) names none)")
        }
        return selected
    }

    /// A new P-256 signing key made in this TPM.
    ///
    /// - Throws: errSecNotAvailable, with tpm2-tss's return code, when the TPM cannot be reached
    ///   or fails, or tpm2-tss is not there.
    func makeKey() throws(KeyFailure) -> TPMHeldKey {
        let made: (blob: Data, point: Data)
        do {
            made = try makeP256Key()
        } catch {
            throw KeyFailure(error)
        }
        guard let key = TPMHeldKey(storedForm: made.point + made.blob) else {
            throw KeyFailure(.notAvailable, "the TPM (\(tcti)) made a key whose public point is not on P-256")
        }
        return key
    }

    /// The raw ECDSA signature (r ‖ s) of a 32-byte digest by the key `blob` holds.
    ///
    /// - Throws: errSecDecode when this TPM cannot load the key (it was made by another TPM,
    ///   or this one was cleared) or its data is damaged; errSecNotAvailable when the TPM
    ///   fails or cannot be reached.
    func sign(digest: Data, with blob: Data) throws(KeyFailure) -> Data {
        do {
            return try signP256(digest: digest, with: blob)
        } catch {
            throw KeyFailure(error)
        }
    }
}

extension KeyFailure {
    /// A TPM's failure with a key, as SecKey reports it.
    init(_ failure: TPMFailure) {
        switch failure.kind {
        case .madeByAnotherTPM, .damaged: self.init(.decode, failure.message)
        case .notAvailable: self.init(.notAvailable, failure.message)
        }
    }
}
