import Dispatch
import Foundation
internal import KeychainCore
import SwiftASN1

/// What ``SecTrustEvaluateAsyncWithError(_:_:_:)`` calls with the outcome: the trust, whether
/// it is trusted, and if not the error saying why.
public typealias SecTrustWithErrorCallback = (SecTrust, Bool, CFError?) -> Void

/// Evaluates a trust: whether its certificate chains to a trusted anchor and meets its policies.
///
/// Synchronous: it returns once evaluation is done, and may be called from any thread, a
/// Swift concurrency task included. Nothing is fetched from the network.
///
/// - Parameters:
///   - trust: The trust.
///   - error: When not trusted, an error of domain `kCFErrorDomainOSStatus` whose code is the
///     most serious failure's status and whose description names the certificate, as Apple's:
///     `errSecNotTrusted` ("“Root” certificate is not trusted") for a chain to an unknown root,
///     `errSecCreateChainFailed` when an issuer is missing, `errSecCertificateExpired` for a
///     certificate expired or not yet valid at the verify date, `errSecHostNameMismatch` for an
///     SSL policy's host name, `errSecInvalidExtendedKeyUsage` for a leaf whose extended key
///     usage does not allow TLS. Its underlying error describes every failure of every
///     certificate. Nil when trusted.
/// - Returns: True when the certificate is trusted.
@discardableResult
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let verdict = trust.evaluatedVerdict()
    error?.pointee = trustError(verdict)
    return verdict.isTrusted
}

/// Evaluates a trust off the calling thread and calls `result` on `queue` with the outcome,
/// as ``SecTrustEvaluateWithError(_:_:)`` gives it.
///
/// - Parameters:
///   - trust: The trust.
///   - queue: The queue `result` is called on. Apple requires the call to be made from it.
///   - result: Called once with the trust, whether it is trusted and the error if not.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustEvaluateAsyncWithError(
    _ trust: SecTrust, _ queue: DispatchQueue, _ result: @escaping SecTrustWithErrorCallback
) -> OSStatus {
    let callback = UncheckedCallback(call: result)
    // A dispatch thread waits for the evaluation thread, as a synchronous caller would; the
    // evaluation thread itself must never wait for its own work.
    DispatchQueue.global().async {
        let verdict = trust.evaluatedVerdict()
        let error = UncheckedError(error: trustError(verdict))
        queue.async { callback.call(trust, verdict.isTrusted, error.error) }
    }
    return errSecSuccess
}

/// The caller's callback, which it gave for `queue`, where it is called.
private struct UncheckedCallback: @unchecked Sendable {
    let call: SecTrustWithErrorCallback
}

/// An error made for the callback alone, handed over once.
private struct UncheckedError: @unchecked Sendable {
    let error: CFError?
}

/// Evaluates a trust, giving the outcome as a result type (deprecated by Apple in favour of
/// ``SecTrustEvaluateWithError(_:_:)``, still widely used).
///
/// - Parameters:
///   - trust: The trust.
///   - result: On return, `.unspecified` when trusted, `.recoverableTrustFailure` when not.
/// - Returns: `errSecSuccess` once evaluated, whatever the verdict.
@available(*, deprecated, renamed: "SecTrustEvaluateWithError(_:_:)")
@discardableResult
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.evaluatedVerdict().result
    return errSecSuccess
}

/// The result of the last evaluation of a trust, without evaluating it.
///
/// - Parameters:
///   - trust: The trust.
///   - result: On return, the result, or `.invalid` if the trust was not evaluated since its
///     settings last changed.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.lastVerdict?.result ?? .invalid
    return errSecSuccess
}

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

/// The results of the last evaluation: `kSecTrustResultValue` (the ``SecTrustResultType``'s raw
/// value) and `kSecTrustEvaluationDate`.
///
/// - Parameter trust: The trust.
/// - Returns: The dictionary, or nil if the trust was not evaluated since its settings changed.
@discardableResult
public func SecTrustCopyResult(_ trust: SecTrust) -> CFDictionary? {
    guard let verdict = trust.lastVerdict else { return nil }
    return [
        kSecTrustResultValue as String: NSNumber(value: verdict.result.rawValue),
        kSecTrustEvaluationDate as String: verdict.date as NSDate,
    ] as NSDictionary
}

/// The key of a trust result's ``SecTrustResultType`` raw value in ``SecTrustCopyResult(_:)``.
nonisolated(unsafe) public let kSecTrustResultValue: CFString = "TrustResultValue"
/// The key of the date of evaluation in ``SecTrustCopyResult(_:)``.
nonisolated(unsafe) public let kSecTrustEvaluationDate: CFString = "TrustEvaluationDate"

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

/// The error Apple's SecTrustEvaluateWithError gives for `verdict`; nil when trusted.
///
/// Its code and description are the most serious failure's, naming the certificate by its
/// subject summary; when two certificates fail alike, the one nearer the leaf. Its underlying
/// error, of the same code, describes each failing certificate: "Certificate 0 “leaf” has
/// errors: SSL hostname does not match name(s) in certificate;".
func trustError(_ verdict: TrustVerdict) -> CFError? {
    guard !verdict.isTrusted else { return nil }
    func name(_ index: Int) -> String {
        guard verdict.chain.indices.contains(index) else { return "" }
        return (SecCertificateCopySubjectSummary(verdict.chain[index]) as String?) ?? ""
    }
    guard var worst = verdict.failures.first else {
        let status = KeychainStatus.internalError
        return NSError(domain: NSOSStatusErrorDomain, code: Int(status.code), userInfo: [NSLocalizedDescriptionKey: status.message])
    }
    for failure in verdict.failures.dropFirst()
    where failure.check.isMoreSerious(than: worst.check) || (failure.check == worst.check && failure.index < worst.index) {
        worst = failure
    }
    var details = ""
    for index in Set(verdict.failures.map(\.index)).sorted() {
        let checks = verdict.failures.filter { $0.index == index }.map(\.check.detail)
        details += "Certificate \(index) \u{201C}\(name(index))\u{201D} has errors: \(checks.joined(separator: ", "));"
    }
    let code = Int(worst.check.status.code)
    let underlying = NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: details])
    return NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [
        NSLocalizedDescriptionKey: worst.check.summary(naming: name(worst.index)),
        NSUnderlyingErrorKey: underlying,
    ])
}
