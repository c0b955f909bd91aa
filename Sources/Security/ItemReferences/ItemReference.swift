import Foundation
@_implementationOnly import KeychainCore

/// A key, certificate or identity given with `kSecValueRef`: as Apple's SecItem.c does, it
/// stands for the attributes and data its item is stored with (an add) or identified by
/// (a search, update or delete); attributes the caller names beside it take precedence.
enum ItemReference {
    case key(SecKey)
    case certificate(SecCertificate)
    case identity(SecIdentity)

    /// The reference a `kSecValueRef` value holds; errSecParam for any other object.
    init(_ value: Any) throws(KeychainError) {
        switch value {
        case let key as SecKey: self = .key(key)
        case let certificate as SecCertificate: self = .certificate(certificate)
        case let identity as SecIdentity: self = .identity(identity)
        default: throw .param("kSecValueRef takes a SecKey, SecCertificate or SecIdentity")
        }
    }

    /// The class of the item it stands for (Apple infers it when kSecClass is absent).
    var itemClass: ItemClass {
        switch self {
        case .key: .key
        case .certificate: .certificate
        case .identity: .identity
        }
    }

    /// What an add stores: the derived attributes. An identity's halves are added one by
    /// one, each as its own reference.
    var storedAttributes: [String: AttributeValue] {
        switch self {
        case .key(let key): key.itemAttributes
        case .certificate(let certificate): certificate.itemAttributes
        case .identity: [:]
        }
    }

    /// What a search for it matches: the attributes that identify the item, for an
    /// identity those of both halves (its search splits them between the two).
    var identifyingAttributes: [String: AttributeValue] {
        switch self {
        case .key(let key): key.identifyingItemAttributes
        case .certificate(let certificate): certificate.identifyingItemAttributes
        case .identity(let identity):
            identity.certificate.identifyingItemAttributes
                .merging(identity.privateKey.identifyingItemAttributes) { certificate, _ in certificate }
        }
    }

    /// The item's data: a key's external representation (behind a marker for a Secure
    /// Enclave-style key), a certificate's DER.
    var data: Data? {
        switch self {
        case .key(let key): key.storedData
        case .certificate(let certificate): Data(certificate.derBytes)
        case .identity: nil
        }
    }
}
