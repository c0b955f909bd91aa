import Foundation
import SwiftASN1

/// The certificate chain of the last evaluation, evaluating the trust first if needed: from the
/// leaf to its anchor, or when not trusted, from the leaf as far as its issuers were found.
///
/// - Parameter trust: The trust.
/// - Returns: An array of ``SecCertificate``, leaf first.
@discardableResult
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    trust.evaluatedVerdict().chain as NSArray
}

/// The number of certificates in the chain (evaluating the trust first if needed), or of the
/// certificates given if the chain is empty.
///
/// - Parameter trust: The trust.
/// - Returns: The count.
@discardableResult
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    let chain = trust.evaluatedVerdict().chain
    return chain.isEmpty ? trust.inputs.certificates.count : chain.count
}

/// A certificate of the chain (evaluating the trust first if needed): 0 is the leaf.
///
/// - Parameters:
///   - trust: The trust.
///   - ix: The index in the chain.
/// - Returns: The certificate, or nil when `ix` is out of the chain.
@available(*, deprecated, renamed: "SecTrustCopyCertificateChain(_:)")
@discardableResult
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    let chain = trust.evaluatedVerdict().chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// The public key of the certificate a trust evaluates (its leaf), as a ``SecKey``.
///
/// The leaf is the first certificate of the evaluated chain, or the first certificate given
/// when the trust has not been evaluated, as on Apple platforms.
///
/// - Parameter trust: The trust.
/// - Returns: The leaf's public key (P-256, P-384, P-521 or RSA), or nil for a key of
///   another kind.
@discardableResult
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    guard let leaf = trust.evaluatedVerdict().chain.first ?? trust.inputs.certificates.first else { return nil }
    return SecCertificateCopyKey(leaf)
}
