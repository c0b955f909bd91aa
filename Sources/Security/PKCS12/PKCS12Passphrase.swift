/// A passphrase in the byte forms PKCS#12's algorithms take it.
///
/// The PKCS#12 KDF (MAC and legacy encryption) takes a BMPString, big-endian UTF-16 with a
/// terminating zero (RFC 7292 appendix B.1); PBES2's PBKDF2 takes the UTF-8 bytes, as
/// OpenSSL does. An empty passphrase has two readings that tools disagree on: the empty
/// string, encoded as the terminator alone (OpenSSL's `-passout pass:`), and no password at
/// all, encoded as no bytes (Java, Windows); OpenSSL's reader tries both, and so does this one.
struct PKCS12Passphrase: Sendable {
    /// For the PKCS#12 KDF.
    let bmpBytes: [UInt8]
    /// For PBKDF2.
    let utf8Bytes: [UInt8]

    /// The readings of `passphrase` to try, the usual first: one for a non-empty passphrase of
    /// ASCII characters; for the empty one, "empty string" then "no password"; for other
    /// characters, the BMPString of the characters, then that of each UTF-8 byte as a
    /// character, which is what OpenSSL before 1.1.0 wrote.
    static func readings(of passphrase: String) -> [PKCS12Passphrase] {
        let utf8 = Array(passphrase.utf8)
        let characters = PKCS12Passphrase(bmpBytes: bmpString(passphrase.utf16), utf8Bytes: utf8)
        if passphrase.isEmpty {
            return [characters, PKCS12Passphrase(bmpBytes: [], utf8Bytes: [])]
        }
        if utf8.allSatisfy({ $0 < 0x80 }) { return [characters] }
        return [characters, PKCS12Passphrase(bmpBytes: bmpString(utf8.map(UInt16.init)), utf8Bytes: utf8)]
    }

    private static func bmpString<Units: Sequence<UInt16>>(_ units: Units) -> [UInt8] {
        units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + [0, 0]
    }
}
