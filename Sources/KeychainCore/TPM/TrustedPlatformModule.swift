internal import CTPM
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The TPM 2.0 this process uses, through tpm2-tss (loaded at run time by CTPM): for
/// Secure Enclave-style keys, and to seal keychains' device keys.
///
/// Which one: the tctildr configuration in `KEYCHAIN_TPM_TCTI` (`device:/dev/tpmrm0`,
/// `swtpm:host=127.0.0.1,port=2321`, ...), else the kernel's resource manager
/// `/dev/tpmrm0` when this user can open it and tpm2-tss is installed, else none.
/// `KEYCHAIN_TPM_TCTI=none` means none.
package struct TrustedPlatformModule: Sendable, Equatable {
    /// The tctildr configuration that names it.
    package let tcti: String
    /// Whether `KEYCHAIN_TPM_TCTI` named it, rather than the default device being found usable.
    package let isNamed: Bool

    package static let environmentVariable = "KEYCHAIN_TPM_TCTI"
    package static let defaultDevice = "/dev/tpmrm0"

    package init(tcti: String, isNamed: Bool) {
        self.tcti = tcti
        self.isNamed = isNamed
    }

    /// The TPM this process is configured to use, or nil for none. One that
    /// `KEYCHAIN_TPM_TCTI` names is used whatever happens (what is asked of it is done in it
    /// or not at all); the default device only when tpm2-tss is installed and this user may
    /// open it.
    package static func selected(environment: [String: String]? = nil) -> TrustedPlatformModule? {
        // getenv unless told otherwise: one variable, without copying the whole environment.
        let named = environment.map { $0[environmentVariable] } ?? getenv(environmentVariable).map { String(cString: $0) }
        if let named, !named.isEmpty {
            return named == "none" ? nil : TrustedPlatformModule(tcti: named, isNamed: true)
        }
        var failure = ctpm_failure()
        guard access(defaultDevice, R_OK | W_OK) == 0, ctpm_available(&failure) == CTPM_OK else { return nil }
        return TrustedPlatformModule(tcti: "device:\(defaultDevice)", isNamed: false)
    }

    /// A new P-256 signing key made in this TPM: its blob (which only this TPM can load) and
    /// its uncompressed public point.
    package func makeP256Key() throws(TPMFailure) -> (blob: Data, point: Data) {
        var blob = [UInt8](repeating: 0, count: Int(CTPM_BLOB_CAPACITY))
        var length = 0
        var point = [UInt8](repeating: 0, count: Int(CTPM_POINT_LENGTH))
        var failure = ctpm_failure()
        let status = ctpm_create_p256_key(tcti, &blob, blob.count, &length, &point, &failure)
        defer { blob.zeroize() }
        guard status == CTPM_OK else { throw failed(status, failure, object: "key") }
        return (Data(blob.prefix(length)), Data(point))
    }

    /// The raw ECDSA signature (r ‖ s) of a 32-byte digest by the key `blob` holds.
    package func signP256(digest: Data, with blob: Data) throws(TPMFailure) -> Data {
        var signature = [UInt8](repeating: 0, count: Int(CTPM_SIGNATURE_LENGTH))
        var failure = ctpm_failure()
        let digestBytes = [UInt8](digest)
        let blobBytes = [UInt8](blob)
        let status = ctpm_sign_p256(tcti, blobBytes, blobBytes.count, digestBytes, &signature, &failure)
        guard status == CTPM_OK else { throw failed(status, failure, object: "key") }
        return Data(signature)
    }

    /// Seals `secret` (at most 128 bytes) to this TPM: the blob of a data object under the
    /// owner hierarchy's storage key, which only this TPM, until it is cleared, can unseal.
    package func seal(_ secret: SecretBytes) throws(TPMFailure) -> Data {
        var blob = [UInt8](repeating: 0, count: Int(CTPM_BLOB_CAPACITY))
        var length = 0
        var failure = ctpm_failure()
        let status = secret.withUnsafeBytes { bytes in
            ctpm_seal(tcti, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &blob, blob.count, &length, &failure)
        }
        guard status == CTPM_OK else { throw failed(status, failure, object: "sealed data") }
        return Data(blob.prefix(length))
    }

    /// The secret a blob of ``seal(_:)`` holds, unsealed by this TPM.
    package func unseal(_ blob: Data) throws(TPMFailure) -> SecretBytes {
        var failure = ctpm_failure()
        var length = 0
        let blobBytes = [UInt8](blob)
        var status: Int32 = CTPM_OK
        let secret = SecretBytes(count: Int(CTPM_SEALED_DATA_CAPACITY)) { buffer in
            status = ctpm_unseal(tcti, blobBytes, blobBytes.count, buffer.bindMemory(to: UInt8.self).baseAddress,
                                 buffer.count, &length, &failure)
        }
        guard status == CTPM_OK else { throw failed(status, failure, object: "sealed data") }
        return secret.withUnsafeBytes { SecretBytes(copying: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    /// The failure of a CTPM call, in words.
    private func failed(_ status: Int32, _ failure: ctpm_failure, object: String) -> TPMFailure {
        let detail = failure.detail.map { String(cString: $0) } ?? "unknown"
        let code = "0x" + String(failure.code, radix: 16)
        switch status {
        case CTPM_FOREIGN_KEY:
            return TPMFailure(kind: .madeByAnotherTPM, message: "the TPM (\(tcti)) cannot load the \(object): it was made in another TPM, or this one was cleared since (\(detail) returned \(code))")
        case CTPM_BAD_BLOB:
            return TPMFailure(kind: .damaged, message: "the \(object)'s TPM data is damaged: \(detail)")
        case CTPM_NOT_BUILT, CTPM_NOT_LOADED:
            return TPMFailure(kind: .notAvailable, message: "the TPM (\(tcti)) cannot be used: \(detail)")
        default:
            return TPMFailure(kind: .notAvailable, message: "the TPM (\(tcti)) failed: \(detail) returned \(code)")
        }
    }
}
