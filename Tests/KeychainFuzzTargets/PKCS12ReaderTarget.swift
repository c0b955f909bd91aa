import Security
import SwiftASN1

/// The PKCS#12 reader. The first byte chooses what the rest is:
/// - even: a whole file, read with ``passphrase``. Bytes the fuzzer makes rarely carry a
///   valid MAC, so this fuzzes the PFX and MAC parsing and the bounds checked before the
///   KDF; the corpus holds real files made with that passphrase;
/// - odd: an authenticated safe, which the target wraps into a PFX without a MAC, so that the
///   reader's parts, bags, attributes and decryption (whose failures then read as a wrong
///   passphrase) see it.
///
/// Either way the reader throws a ``PKCS12Failure`` (its only error type) or returns; it never
/// traps, hangs or takes unbounded memory.
package enum PKCS12ReaderTarget {
    package static let passphrase = "libfuzz pkcs12"

    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let file = mode & 1 == 0 ? rest : withoutMAC(authenticatedSafe: rest)
        _ = try? PKCS12Archive(derBytes: file, passphrase: passphrase)
    }

    /// PFX { version 3, ContentInfo { data, [0] OCTET STRING authenticatedSafe } }, built here
    /// with swift-asn1 rather than with the reader's own types.
    package static func withoutMAC(authenticatedSafe: [UInt8]) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try serializer.appendConstructedNode(identifier: .sequence) { pfx in
                try pfx.serialize(3)
                try pfx.appendConstructedNode(identifier: .sequence) { contentInfo in
                    let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
                    try contentInfo.serialize(data)
                    try contentInfo.serialize(ASN1OctetString(contentBytes: authenticatedSafe[...]),
                                              explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific)
                }
            }
        } catch {
            fatalError("a PFX without a MAC cannot be encoded: \(error)")
        }
        return serializer.serializedBytes
    }
}
