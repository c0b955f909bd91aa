/// The outcome of a trust evaluation, with Apple's raw values.
///
/// ``SecTrustEvaluateWithError(_:_:)`` succeeds for `.proceed` and `.unspecified`; every
/// failure this module reports is `.recoverableTrustFailure`, a verdict that other anchors,
/// another verify date or another policy might change.
public enum SecTrustResultType: UInt32, Sendable {
    /// Not evaluated yet, or evaluation could not run.
    case invalid = 0
    /// The user explicitly trusts the chain. Never given here: Linux has no trust settings.
    case proceed = 1
    /// Confirmation was required. No longer used by Apple either.
    @available(*, deprecated)
    case confirm = 2
    /// The user explicitly distrusts the chain. Never given here.
    case deny = 3
    /// The chain leads to a trusted anchor and meets every policy: the usual success.
    case unspecified = 4
    /// The chain is not trusted as it stands.
    case recoverableTrustFailure = 5
    /// The chain is not trusted, whatever the settings.
    case fatalTrustFailure = 6
    /// Evaluation failed for a reason other than trust.
    case otherError = 7
}
