/// Why a call on the TPM failed, in words for the user (never key material), and what kind
/// of failure it is, for the caller to pick its status.
package struct TPMFailure: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// The TPM cannot be reached, tpm2-tss is missing or not built in, or the TPM failed.
        case notAvailable
        /// The TPM refused to load the blob: it was made by another TPM, or this one was
        /// cleared since (its storage seed, and so its storage key, changed).
        case madeByAnotherTPM
        /// The blob is not one this library made: damaged or foreign data.
        case damaged
    }

    package let kind: Kind
    package let message: String

    package var description: String { message }
}
