import CryptoKit
import Foundation
import Testing

/// Code written for Apple's CryptoKit, with `import CryptoKit` and nothing else, compiles and
/// runs against this package's CryptoKit module.
@Suite struct CryptoKitTests {
    @Test func cryptoKitCodeCompilesAndRuns() throws {
        let digest = SHA256.hash(data: Data("abc".utf8))
        #expect(digest.compactMap { String(format: "%02x", $0) }.joined()
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Insecure.SHA1.hash(data: Data("abc".utf8)).description.contains("a9993e364706816aba3e25717850c26c9cd0d89d"))

        let key = SymmetricKey(data: Data("Jefe".utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("what do ya want for nothing?".utf8), using: key)
        #expect(Data(mac) == Data(hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data("what do ya want for nothing?".utf8), using: key))

        let aesKey = SymmetricKey(size: .bits256)
        let sealed = try AES.GCM.seal(Data("secret".utf8), using: aesKey)
        #expect(try AES.GCM.open(sealed, using: aesKey) == Data("secret".utf8))
        let chacha = try ChaChaPoly.seal(Data("secret".utf8), using: aesKey)
        #expect(try ChaChaPoly.open(chacha, using: aesKey) == Data("secret".utf8))

        let signingKey = P256.Signing.PrivateKey()
        let signature = try signingKey.signature(for: Data("message".utf8))
        #expect(signingKey.publicKey.isValidSignature(signature, for: Data("message".utf8)))

        let alice = Curve25519.KeyAgreement.PrivateKey(), bob = Curve25519.KeyAgreement.PrivateKey()
        let shared1 = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        let shared2 = try bob.sharedSecretFromKeyAgreement(with: alice.publicKey)
        let derived1 = shared1.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: Data(), outputByteCount: 32)
        let derived2 = shared2.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: Data(), outputByteCount: 32)
        #expect(derived1 == derived2)

        let edKey = Curve25519.Signing.PrivateKey()
        let edSignature = try edKey.signature(for: Data("message".utf8))
        #expect(edKey.publicKey.isValidSignature(edSignature, for: Data("message".utf8)))

        // JOSESwift's shapes: keys through their X9.63 and raw forms, ECDH over P-256 with the
        // shared secret's bytes, and signatures through their raw form.
        let agreementKey = P256.KeyAgreement.PrivateKey()
        let peer = try P256.KeyAgreement.PublicKey(x963Representation: P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        let secret = try agreementKey.sharedSecretFromKeyAgreement(with: peer)
        #expect(secret.withUnsafeBytes { $0.count } == 32)
        let rawSignature = try P256.Signing.ECDSASignature(rawRepresentation: signature.rawRepresentation)
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: signingKey.publicKey.rawRepresentation)
        #expect(publicKey.isValidSignature(rawSignature, for: SHA256.hash(data: Data("message".utf8))))
        let p521 = P521.Signing.PrivateKey()
        #expect(p521.publicKey.isValidSignature(try p521.signature(for: Data("m".utf8)), for: Data("m".utf8)))

        let wrapped = try AES.KeyWrap.wrap(aesKey, using: SymmetricKey(size: .bits128))
        #expect(wrapped.count == 40)
    }
}
