import Foundation
import Synchronization

/// A trust: certificates to evaluate, the policies to evaluate them against, and the outcome.
///
/// Create one with ``SecTrustCreateWithCertificates(_:_:_:)``, evaluate it with
/// ``SecTrustEvaluateWithError(_:_:)``. Its functions may be called from any thread.
public final class SecTrust: CoreFoundationTyped, Sendable {
    private struct State: Sendable {
        var inputs: TrustInputs
        /// Whether the caller allowed fetching missing certificates; nil for the default.
        var networkFetchAllowed: Bool?
        /// The last evaluation's outcome, nil once a setting changes.
        var verdict: TrustVerdict?
        /// Counts the changes of settings, to tell whether they changed during an evaluation.
        var generation = 0
    }

    private let state: Mutex<State>

    init(inputs: TrustInputs) {
        state = Mutex(State(inputs: inputs))
    }

    /// Unique among the types of the process: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecTrust.self).hashValue)
    }

    var inputs: TrustInputs { state.withLock { $0.inputs } }

    /// Changes the settings; the next result needs a new evaluation.
    func change(_ body: (inout TrustInputs) -> Void) {
        state.withLock {
            body(&$0.inputs)
            $0.verdict = nil
            $0.generation += 1
        }
    }

    var networkFetchAllowed: Bool? {
        get { state.withLock { $0.networkFetchAllowed } }
        set { state.withLock { $0.networkFetchAllowed = newValue } }
    }

    /// The last outcome, if the settings have not changed since.
    var lastVerdict: TrustVerdict? { state.withLock { $0.verdict } }

    /// The outcome for the current settings: the last one, or a new evaluation.
    func evaluatedVerdict() -> TrustVerdict {
        let (cached, inputs, generation) = state.withLock { ($0.verdict, $0.inputs, $0.generation) }
        if let cached { return cached }
        // Evaluated without the lock held, so that other calls need not wait for it; kept
        // only if the settings did not change meanwhile.
        let verdict = TrustEvaluation.verdict(for: inputs)
        state.withLock {
            if $0.generation == generation { $0.verdict = verdict }
        }
        return verdict
    }
}

/// The type identifier of trusts: what `CFGetTypeID` returns for a ``SecTrust``.
@discardableResult
public func SecTrustGetTypeID() -> CFTypeID {
    SecTrust.coreFoundationTypeID
}

/// Creates a trust to evaluate certificates against policies.
///
/// - Parameters:
///   - certificates: The certificate to evaluate (a ``SecCertificate``), or an array whose
///     first element is it and whose others are certificates that may help build its chain
///     (intermediates), in any order.
///   - policies: A ``SecPolicy``, an array of them, or nil for the basic X.509 policy.
///   - trust: On success, the new trust.
/// - Returns: `errSecSuccess`, or `errSecParam` when `certificates` is neither a certificate
///   nor a non-empty array of them, or `policies` neither a policy nor a non-empty array of them.
@discardableResult
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    guard let certificates = trustElements(certificates, of: SecCertificate.self) else { return errSecParam }
    let chosen: [SecPolicy]
    if let policies {
        guard let given = trustElements(policies, of: SecPolicy.self) else { return errSecParam }
        chosen = given
    } else {
        chosen = [SecPolicyCreateBasicX509()]
    }
    trust.pointee = SecTrust(
        inputs: TrustInputs(certificates: certificates, policies: chosen, anchors: nil, anchorsOnly: false, verifyDate: nil))
    return errSecSuccess
}

/// One `Element`, or a non-empty array of nothing else; nil for anything else.
func trustElements<Element>(_ value: AnyObject, of type: Element.Type) -> [Element]? {
    if let single = value as? Element { return [single] }
    guard let array = value as? NSArray, array.count > 0 else { return nil }
    var elements: [Element] = []
    for case let element in array {
        guard let element = element as? Element else { return nil }
        elements.append(element)
    }
    return elements
}

/// Sets the policies a trust is evaluated against, replacing its own.
///
/// - Parameters:
///   - trust: The trust.
///   - policies: A ``SecPolicy`` or a non-empty array of them.
/// - Returns: `errSecSuccess`, or `errSecParam` for anything else.
@discardableResult
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let policies = trustElements(policies, of: SecPolicy.self) else { return errSecParam }
    trust.change { $0.policies = policies }
    return errSecSuccess
}

/// The policies a trust is evaluated against.
///
/// - Parameters:
///   - trust: The trust.
///   - policies: On return, an array of ``SecPolicy``.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = trust.inputs.policies as NSArray
    return errSecSuccess
}

/// Sets the certificates a trust accepts as anchors (roots).
///
/// As on Apple platforms, anchors set here replace the system's trusted roots, until
/// ``SecTrustSetAnchorCertificatesOnly(_:_:)`` is called with false to trust both. Passing nil
/// goes back to the system's roots alone.
///
/// - Parameters:
///   - trust: The trust.
///   - anchorCertificates: An array of ``SecCertificate``, possibly empty; nil for none.
/// - Returns: `errSecSuccess`, or `errSecParam` when the array holds anything but certificates.
@discardableResult
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    var anchors: [SecCertificate]?
    if let anchorCertificates {
        var certificates: [SecCertificate] = []
        for case let element in anchorCertificates {
            guard let certificate = element as? SecCertificate else { return errSecParam }
            certificates.append(certificate)
        }
        anchors = certificates
    }
    trust.change {
        $0.anchors = anchors
        $0.anchorsOnly = anchors != nil
    }
    return errSecSuccess
}

/// Sets whether the anchors of ``SecTrustSetAnchorCertificates(_:_:)`` are the only ones
/// trusted (true, what setting them implies) or join the system's trusted roots (false).
///
/// - Parameters:
///   - trust: The trust.
///   - anchorCertificatesOnly: True to trust the custom anchors alone.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.change { $0.anchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// The anchors set with ``SecTrustSetAnchorCertificates(_:_:)``.
///
/// - Parameters:
///   - trust: The trust.
///   - anchors: On return, the custom anchors, or nil when none were set.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustCopyCustomAnchorCertificates(_ trust: SecTrust, _ anchors: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    anchors.pointee = trust.inputs.anchors.map { $0 as NSArray }
    return errSecSuccess
}

/// Sets the date at which certificates must be valid, instead of the time of evaluation.
///
/// - Parameters:
///   - trust: The trust.
///   - verifyDate: The date.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    trust.change { $0.verifyDate = date }
    return errSecSuccess
}

/// The time at which certificates are checked: the date of ``SecTrustSetVerifyDate(_:_:)``,
/// else the time of the last evaluation, else now.
///
/// - Parameter trust: The trust.
/// - Returns: Seconds since 1 January 2001 GMT.
@discardableResult
public func SecTrustGetVerifyTime(_ trust: SecTrust) -> CFAbsoluteTime {
    let date = trust.inputs.verifyDate ?? trust.lastVerdict?.date ?? Date()
    return date.timeIntervalSinceReferenceDate
}

/// Sets whether evaluation may fetch missing intermediate certificates and revocation
/// information from the network.
///
/// Recorded only: this module never fetches anything, so a chain must be complete from the
/// certificates and anchors given.
///
/// - Parameters:
///   - trust: The trust.
///   - allowFetch: Whether fetching is allowed.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    trust.networkFetchAllowed = allowFetch
    return errSecSuccess
}

/// Whether evaluation may fetch from the network: what ``SecTrustSetNetworkFetchAllowed(_:_:)``
/// set, otherwise Apple's default, false when a basic X.509 policy is among the trust's and true
/// otherwise. Nothing is ever fetched here, whatever it says.
///
/// - Parameters:
///   - trust: The trust.
///   - allowFetch: On return, whether fetching is allowed.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustGetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    let allowed = trust.networkFetchAllowed ?? !trust.inputs.policies.contains { $0.kind == .basicX509 }
    allowFetch.pointee = DarwinBoolean(allowed)
    return errSecSuccess
}
