import Crypto
import Dispatch
import Foundation
@testable import KeychainCore
import Testing

/// Every item, wrapped key and archive is sealed by ``RecordSealer``: its blobs must be
/// AES-GCM's combined form exactly, or keychains written before would no longer open.
/// swift-crypto's `AES.GCM` is the oracle, in both directions.
@Suite struct RecordSealerTests {
    static let keySizes: [SymmetricKeySize] = [.bits128, .bits192, .bits256]
    static let lengths = [0, 1, 15, 16, 17, 64, 1000]

    @Test("a blob sealed under a given nonce is AES.GCM's byte for byte, and AES.GCM opens it",
          arguments: keySizes)
    func sealsAsAESGCM(size: SymmetricKeySize) throws {
        let key = SymmetricKey(size: size)
        for length in Self.lengths {
            let plaintext = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            for aad in [Data(), Data("item secret".utf8)] {
                let nonce = Array(AES.GCM.Nonce())
                let ours = try RecordSealer.seal(plaintext, with: key, binding: aad, nonce: nonce[...])
                let theirs = try #require(try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce),
                                                           authenticating: aad).combined)
                #expect(ours == theirs)
                #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: ours), using: key, authenticating: aad) == plaintext)
            }
        }
    }

    @Test("a blob AES.GCM sealed opens to its plaintext", arguments: keySizes)
    func opensAESGCM(size: SymmetricKeySize) throws {
        let key = SymmetricKey(size: size)
        for length in Self.lengths {
            let plaintext = Data(repeating: 0xC3, count: length)
            let aad = Data("attributes".utf8)
            let sealed = try #require(try AES.GCM.seal(plaintext, using: key, authenticating: aad).combined)
            #expect(try RecordSealer.open(sealed, with: key, binding: aad) == plaintext)
        }
    }

    @Test("fresh nonces differ from seal to seal, and each blob opens")
    func freshNonces() throws {
        let key = SymmetricKey(size: .bits256)
        let one = try RecordSealer.seal(Data("same".utf8), with: key, binding: Data())
        let two = try RecordSealer.seal(Data("same".utf8), with: key, binding: Data())
        #expect(one.prefix(12) != two.prefix(12))
        #expect(try RecordSealer.open(one, with: key, binding: Data()) == Data("same".utf8))
        #expect(try RecordSealer.open(two, with: key, binding: Data()) == Data("same".utf8))
    }

    @Test("an altered byte anywhere, other associated data, another key or a short blob is errSecDecode")
    func refusals() throws {
        let key = SymmetricKey(size: .bits256)
        let aad = Data("secret".utf8)
        let sealed = try RecordSealer.seal(Data("s3cr3t-password".utf8), with: key, binding: aad)
        for index in sealed.indices {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: KeychainError.decode) { try RecordSealer.open(altered, with: key, binding: aad) }
        }
        #expect(throws: KeychainError.decode) { try RecordSealer.open(sealed, with: key, binding: Data("guarded".utf8)) }
        #expect(throws: KeychainError.decode) { try RecordSealer.open(sealed, with: SymmetricKey(size: .bits256), binding: aad) }
        #expect(throws: KeychainError.decode) { try RecordSealer.open(sealed.prefix(27), with: key, binding: aad) }
        #expect(throws: KeychainError.decode) { try RecordSealer.open(Data(), with: key, binding: aad) }
        // A blob opened after a failed one still opens: no state is left behind.
        #expect(try RecordSealer.open(sealed, with: key, binding: aad) == Data("s3cr3t-password".utf8))
    }

    @Test("a key of a size AES does not have is refused, never used")
    func oddKeySize() {
        let key = SymmetricKey(data: Data(repeating: 1, count: 20))
        #expect(throws: KeychainError.self) { try RecordSealer.seal(Data("x".utf8), with: key, binding: Data()) }
        #expect(throws: KeychainError.decode) { try RecordSealer.open(Data(repeating: 0, count: 40), with: key, binding: Data()) }
    }

    @Test("plaintext and associated data in several pieces seal as the same bytes in one")
    func piecewiseInput() throws {
        let key = SymmetricKey(size: .bits256)
        var plaintext = DispatchData.empty
        var aad = DispatchData.empty
        for piece in ["first ", "second ", "third"] {
            Data(piece.utf8).withUnsafeBytes { plaintext.append($0) }
            Data(piece.uppercased().utf8).withUnsafeBytes { aad.append($0) }
        }
        let nonce = Array(AES.GCM.Nonce())
        let pieces = try RecordSealer.seal(plaintext, with: key, binding: aad, nonce: nonce[...])
        let whole = try RecordSealer.seal(Data(plaintext), with: key, binding: Data(aad), nonce: nonce[...])
        #expect(pieces == whole)
        #expect(try RecordSealer.open(pieces, with: key, binding: Data(aad)) == Data("first second third".utf8))
    }

    @Test("a key set up once seals as AES.GCM and opens its blobs call after call, for several keys")
    func keptCipher() throws {
        let keys = Self.keySizes.map { SymmetricKey(size: $0) } + [SymmetricKey(size: .bits256)]
        let ciphers = try keys.map { try #require(KeyedAESGCM(key: $0)) }
        let aad = Data("item secret".utf8)
        for round in 0..<3 {
            for (key, cipher) in zip(keys, ciphers) {
                let plaintext = Data("secret \(round)".utf8)
                let nonce = Array(AES.GCM.Nonce())
                let ours = try RecordSealer.seal(plaintext, with: cipher, binding: aad, nonce: nonce[...])
                let theirs = try #require(try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce),
                                                           authenticating: aad).combined)
                #expect(ours == theirs)
                #expect(try RecordSealer.open(theirs, with: cipher, binding: aad) == plaintext)
                // Each cipher is its own key's: none opens another key's blob.
                for other in ciphers where other !== cipher {
                    #expect(throws: KeychainError.decode) { try RecordSealer.open(theirs, with: other, binding: aad) }
                }
            }
        }
        #expect(KeyedAESGCM(key: SymmetricKey(data: Data(repeating: 1, count: 20))) == nil)
    }
}
