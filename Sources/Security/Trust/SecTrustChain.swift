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

/// The DER SubjectPublicKeyInfo of the leaf of a trust's chain (the first certificate given
/// when there is no chain), for `SecTrustCopyKey`.
package func trustLeafPublicKeyInfo(_ trust: SecTrust) -> [UInt8]? {
    guard let leaf = trust.evaluatedVerdict().chain.first ?? trust.inputs.certificates.first else { return nil }
    var serializer = DER.Serializer()
    guard (try? serializer.serialize(leaf.parsed.publicKey)) != nil else { return nil }
    return serializer.serializedBytes
}
// TODO(integrator): SecTrustCopyKey(_ trust: SecTrust) -> SecKey? goes here once SecKey exists:
// the public key made from trustLeafPublicKeyInfo(trust), nil when it cannot be made.
