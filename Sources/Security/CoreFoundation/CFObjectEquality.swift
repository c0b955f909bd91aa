import Foundation

// Core Foundation's types are Hashable in Swift on Apple platforms, by CFEqual and CFHash of
// the object they stand for: two references to the same key are equal, and code keeps them
// in sets and in `[String: AnyHashable]` (Valet keeps a SecAccessControl there). These are
// the same comparisons, on what each object is.

extension SecAccessControl: Hashable {
    /// Equal when the protection class and the flags are.
    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool { lhs.hasSameMeaning(as: rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(protection)
        hasher.combine(flags.rawValue)
    }
}

extension SecKey: Hashable {
    /// Equal when both are the public half of one key pair, or both the private half: a
    /// private key is the one whose public key it holds. A Secure Enclave-style key is equal
    /// only to references to the same key, whose public point it shares with no other.
    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        lhs === rhs || (lhs.material.isPrivate == rhs.material.isPrivate && lhs.material.family == rhs.material.family
            && lhs.material.publicExternalRepresentation == rhs.material.publicExternalRepresentation)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(material.isPrivate)
        hasher.combine(material.publicExternalRepresentation)
    }
}

extension SecCertificate: Hashable {
    /// Equal when their DER encodings are.
    public static func == (lhs: SecCertificate, rhs: SecCertificate) -> Bool { lhs.derBytes == rhs.derBytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}

extension SecIdentity: Hashable {
    /// Equal when their certificates and private keys are.
    public static func == (lhs: SecIdentity, rhs: SecIdentity) -> Bool {
        lhs.certificate == rhs.certificate && lhs.privateKey == rhs.privateKey
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(certificate) }
}

extension SecPolicy: Hashable {
    /// Equal only to itself.
    public static func == (lhs: SecPolicy, rhs: SecPolicy) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension SecTrust: Hashable {
    /// Equal only to itself: a trust is an evaluation in progress, with its own state.
    public static func == (lhs: SecTrust, rhs: SecTrust) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
