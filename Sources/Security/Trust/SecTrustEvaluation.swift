import Dispatch
import Foundation

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
