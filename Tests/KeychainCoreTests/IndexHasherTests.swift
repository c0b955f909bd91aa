import Crypto
import Foundation
@testable import KeychainCore
import Testing

/// The index hasher's hashes, through its caches of recent and last hashes, must be
/// HMAC-SHA256's exactly, for every key length, or existing keychains would no longer find
/// their items. swift-crypto's one-shot HMAC is the oracle.
@Suite struct IndexHasherTests {
    /// What the hasher authenticates for a column: the code, a zero byte, the bytes.
    func expected(_ code: String, _ bytes: Data, key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(code.utf8) + [0] + bytes, using: key))
    }

    @Test("column hashes are HMAC-SHA256 for keys shorter than, as long as and longer than a block",
          arguments: [1, 16, 32, 63, 64, 65, 100, 200])
    func columnHashesAreHMAC(keyLength: Int) {
        let key = SymmetricKey(data: Data((0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        let hasher = IndexHasher(key: key)
        // Short and long messages, through the uncached path (accounts) and the cached one
        // (services and access groups, asked twice).
        for bytes in [Data(), Data("alice".utf8), Data(repeating: 0xA5, count: 200)] {
            #expect(hasher.hash("acct", bytes) == expected("acct", bytes, key: key))
            #expect(hasher.hash("svce", bytes) == expected("svce", bytes, key: key))
            #expect(hasher.hash("svce", bytes) == expected("svce", bytes, key: key))
        }
        // Back to an earlier service: kept among the recent hashes, no longer the last one.
        #expect(hasher.hash("svce", Data("alice".utf8)) == expected("svce", Data("alice".utf8), key: key))
        #expect(hasher.hash("srvr", Data("alice".utf8)) == expected("srvr", Data("alice".utf8), key: key))
        #expect(hasher.accessGroupHash("com.example.app") == expected("agrp", Data("com.example.app".utf8), key: key))
        #expect(hasher.accessGroupHash("com.example.app") == expected("agrp", Data("com.example.app".utf8), key: key))
    }

    @Test("a string's hash is the hash of its UTF-8, through the cached and the uncached paths, in either order")
    func stringsHashAsTheirUTF8() {
        let key = SymmetricKey(data: Data(repeating: 9, count: 32))
        let hasher = IndexHasher(key: key)
        for string in ["", "alice", "bench.example.com", "user-42@example.com", "Zoë 😀", String(repeating: "x", count: 300)] {
            let bytes = Data(string.utf8)
            for code in ["acct", "svce", "srvr", "agrp"] {
                #expect(hasher.hash(code, utf8Of: string) == expected(code, bytes, key: key))
                // Kept as the last hash by the string, found by the bytes, and the reverse.
                #expect(hasher.hash(code, bytes) == expected(code, bytes, key: key))
                #expect(hasher.hash(code, utf8Of: string) == expected(code, bytes, key: key))
            }
        }
        // Back to an earlier service, given as a string: among the recent hashes.
        #expect(hasher.hash("svce", utf8Of: "alice") == expected("svce", Data("alice".utf8), key: key))
    }

    @Test("hashes under different keys differ")
    func keysSeparate() {
        let one = IndexHasher(key: SymmetricKey(data: Data(repeating: 1, count: 32)))
        let two = IndexHasher(key: SymmetricKey(data: Data(repeating: 2, count: 32)))
        #expect(one.hash("acct", Data("alice".utf8)) != two.hash("acct", Data("alice".utf8)))
    }

    @Test("one hasher used from many threads at once gives every thread its own message's hash")
    func concurrentHashes() async {
        let key = SymmetricKey(data: Data(repeating: 7, count: 32))
        let hasher = IndexHasher(key: key)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for call in 0..<300 {
                        let bytes = Data("account-\(thread)-\(call)".utf8)
                        if hasher.hash("acct", bytes) != expected("acct", bytes, key: key) { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
