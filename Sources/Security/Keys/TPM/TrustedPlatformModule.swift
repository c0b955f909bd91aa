@_implementationOnly import CTPM
import Foundation
@_implementationOnly import KeychainCore

/// The TPM 2.0 that Secure Enclave-style keys are made in and signed with, through tpm2-tss
/// (loaded at run time by CTPM).
///
/// Which one: the tctildr configuration in `KEYCHAIN_TPM_TCTI` (`device:/dev/tpmrm0`,
/// `swtpm:host=127.0.0.1,port=2321`, ...), else the kernel's resource manager
/// `/dev/tpmrm0` when this user can open it and tpm2-tss is installed, else none.
/// `KEYCHAIN_TPM_TCTI=none` means none.
struct TrustedPlatformModule: Sendable {
    /// The tctildr configuration that names it.
    let tcti: String

    static let environmentVariable = "KEYCHAIN_TPM_TCTI"
    static let defaultDevice = "/dev/tpmrm0"

    /// The TPM this process is configured to use, or nil for none. One that
    /// `KEYCHAIN_TPM_TCTI` names is used whatever happens (a key is made in it or not at all);
    /// the default device only when tpm2-tss is installed and this user may open it.
    static func selected(environment: [String: String] = ProcessInfo.processInfo.environment) -> TrustedPlatformModule? {
        if let named = environment[environmentVariable], !named.isEmpty {
            return named == "none" ? nil : TrustedPlatformModule(tcti: named)
        }
        var failure = ctpm_failure()
        guard access(defaultDevice, R_OK | W_OK) == 0, ctpm_available(&failure) == CTPM_OK else { return nil }
        return TrustedPlatformModule(tcti: "device:\(defaultDevice)")
    }

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
        var blob = [UInt8](repeating: 0, count: Int(CTPM_BLOB_CAPACITY))
        var length = 0
        var point = [UInt8](repeating: 0, count: Int(CTPM_POINT_LENGTH))
        var failure = ctpm_failure()
        let status = ctpm_create_p256_key(tcti, &blob, blob.count, &length, &point, &failure)
        defer { blob.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        guard status == CTPM_OK else { throw Self.keyFailure(status, failure, tcti) }
        guard let key = TPMHeldKey(storedForm: Data(point) + Data(blob.prefix(length))) else {
            throw KeyFailure(.notAvailable, "the TPM (\(tcti)) made a key whose public point is not on P-256")
        }
        return key
    }

    /// The raw ECDSA signature (r ‖ s) of a 32-byte digest by the key `blob` holds.
    ///
    /// - Throws: errSecDecode when this TPM cannot load the key (it was made by another TPM,
    ///   or this one was cleared); errSecNotAvailable when the TPM fails or cannot be reached.
    func sign(digest: Data, with blob: Data) throws(KeyFailure) -> Data {
        var signature = [UInt8](repeating: 0, count: Int(CTPM_SIGNATURE_LENGTH))
        var failure = ctpm_failure()
        let digestBytes = [UInt8](digest)
        let blobBytes = [UInt8](blob)
        let status = ctpm_sign_p256(tcti, blobBytes, blobBytes.count, digestBytes, &signature, &failure)
        guard status == CTPM_OK else { throw Self.keyFailure(status, failure, tcti) }
        return Data(signature)
    }

    /// The caller's error for a failed CTPM call.
    private static func keyFailure(_ status: Int32, _ failure: ctpm_failure, _ tcti: String) -> KeyFailure {
        let detail = failure.detail.map { String(cString: $0) } ?? "unknown"
        let code = "0x" + String(failure.code, radix: 16)
        switch status {
        case CTPM_FOREIGN_KEY:
            return KeyFailure(.decode, "the TPM (\(tcti)) cannot load the key: it was made in another TPM, or this one was cleared (\(detail) returned \(code))")
        case CTPM_BAD_BLOB:
            return KeyFailure(.decode, "the key's TPM data is damaged: \(detail)")
        case CTPM_NOT_BUILT, CTPM_NOT_LOADED:
            return KeyFailure(.notAvailable, "the TPM (\(tcti)) cannot be used: \(detail)")
        default:
            return KeyFailure(.notAvailable, "the TPM (\(tcti)) failed: \(detail) returned \(code)")
        }
    }
}
