import Foundation

/// A trust policy: what ``SecTrustEvaluateWithError(_:_:)`` requires of a certificate chain
/// besides chaining to a trusted anchor.
///
/// Create one with ``SecPolicyCreateBasicX509()`` or ``SecPolicyCreateSSL(_:_:)``. Immutable,
/// so it may be shared between threads.
public final class SecPolicy: CoreFoundationTyped, Sendable {
    /// What the policy checks.
    enum Kind: Sendable, Equatable {
        /// RFC 5280 path validation alone: signatures, validity dates, basic and name constraints.
        case basicX509
        /// Basic X.509, and a leaf fit for TLS: the extended key usage of a server (`server`) or a
        /// client, and, when `hostname` is given, a subject alternative name matching it.
        case ssl(server: Bool, hostname: String?)
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
    }

    /// Unique among the types of the process: the address of the class's metadata.
    package static var coreFoundationTypeID: CFTypeID {
        CFTypeID(bitPattern: ObjectIdentifier(SecPolicy.self).hashValue)
    }
}

/// The object identifier of the basic X.509 policy, the value of `kSecPolicyOid` in
/// ``SecPolicyCopyProperties(_:)``.
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = "1.2.840.113635.100.1.2"
/// The object identifier of the SSL (TLS) policy.
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = "1.2.840.113635.100.1.3"

/// The properties key of a policy's object identifier, such as ``kSecPolicyAppleSSL``.
nonisolated(unsafe) public let kSecPolicyOid: CFString = "SecPolicyOid"
/// The properties key of the name a policy checks: an SSL policy's host name.
nonisolated(unsafe) public let kSecPolicyName: CFString = "SecPolicyName"
/// The properties key present, `kCFBooleanTrue`, when an SSL policy checks a client's
/// certificate rather than a server's.
nonisolated(unsafe) public let kSecPolicyClient: CFString = "SecPolicyClient"

/// The type identifier of policies: what `CFGetTypeID` returns for a ``SecPolicy``.
@discardableResult
public func SecPolicyGetTypeID() -> CFTypeID {
    SecPolicy.coreFoundationTypeID
}

/// Creates the basic X.509 policy: the chain must lead to a trusted anchor, every signature
/// must verify, every certificate must be valid at the verify date, and basic and name
/// constraints must hold (RFC 5280).
///
/// - Returns: The policy.
@discardableResult
public func SecPolicyCreateBasicX509() -> SecPolicy {
    SecPolicy(kind: .basicX509)
}

/// Creates a policy for TLS certificates.
///
/// Besides the checks of ``SecPolicyCreateBasicX509()``, the leaf's extended key usage, if it
/// has one, must allow a server (`serverAuth`, or any usage) or, for a client policy, a client
/// (`clientAuth`, or any usage); and when `hostname` is given, one of the leaf's subject
/// alternative names must match it (a DNS name, `*.` wildcards in the leftmost label, or an IP
/// address). As on Apple platforms since 2019, the common name is never used as a host name.
///
/// - Parameters:
///   - server: True to check a server's certificate, false a client's.
///   - hostname: The host name the certificate must be valid for; nil checks no name.
/// - Returns: The policy.
@discardableResult
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(kind: .ssl(server: server, hostname: hostname.map { $0 as String }))
}

/// The properties of a policy, as Apple gives them: `kSecPolicyOid` (``kSecPolicyAppleX509Basic``
/// or ``kSecPolicyAppleSSL``), `kSecPolicyName` (an SSL policy's host name, if it has one) and
/// `kSecPolicyClient` (`kCFBooleanTrue` for an SSL client policy only).
///
/// - Parameter policyRef: The policy.
/// - Returns: A dictionary of its properties.
@discardableResult
public func SecPolicyCopyProperties(_ policyRef: SecPolicy) -> CFDictionary? {
    let properties = NSMutableDictionary()
    switch policyRef.kind {
    case .basicX509:
        properties[kSecPolicyOid] = kSecPolicyAppleX509Basic
    case .ssl(let server, let hostname):
        properties[kSecPolicyOid] = kSecPolicyAppleSSL
        if let hostname { properties[kSecPolicyName] = NSString(string: hostname) }
        if !server { properties[kSecPolicyClient] = kCFBooleanTrue }
    }
    return properties
}
