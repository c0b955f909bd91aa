/// A private key read from, or to be written to, a PKCS#12 file. Neither its description
/// nor its mirror (`dump`, test failures) shows the key's bytes.
package struct PKCS12PrivateKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The key as a PKCS#8 `PrivateKeyInfo`, DER: decrypted when it came from a shrouded bag.
    package var privateKeyInfo: [UInt8]
    package var attributes: PKCS12BagAttributes

    package init(privateKeyInfo: [UInt8], attributes: PKCS12BagAttributes = PKCS12BagAttributes()) {
        self.privateKeyInfo = privateKeyInfo
        self.attributes = attributes
    }

    package var description: String {
        "PKCS12PrivateKey(\(privateKeyInfo.count) bytes, friendlyName: \(attributes.friendlyName.map { "\"\($0)\"" } ?? "none"))"
    }

    package var customMirror: Mirror {
        Mirror(self, children: ["byteCount": privateKeyInfo.count, "attributes": attributes])
    }
}

/// An X.509 certificate read from, or to be written to, a PKCS#12 file.
package struct PKCS12Certificate: Sendable, Equatable {
    /// The certificate, DER.
    package var der: [UInt8]
    package var attributes: PKCS12BagAttributes

    package init(der: [UInt8], attributes: PKCS12BagAttributes = PKCS12BagAttributes()) {
        self.der = der
        self.attributes = attributes
    }
}
