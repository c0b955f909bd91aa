// Finds of a key by its application tag, returning the SecKey, at several numbers of keys:
// the lookup that code storing keys (SwiftyRSA, CertificateSigningRequest, Auth0's DPoP key
// store, Apple's "Storing CryptoKit Keys in the Keychain") makes every time it needs its key;
// and by its application label (the public-key hash), the lookup that forms an identity
// from a certificate; and by kSecAttrLabel, the name a program or a person gives a key, found
// through the index of attributes without a column of their own. Each is timed alike (5,000
// finds); a find that opens every key would be timed with fewer (see keyLookupCount).
//
//   keychain-benchmark --keys [sizes...]      (default: 1000 100000)
import Foundation
import Security

struct KeyLookupFigures: Codable {
    var size: Int
    var add: Double
    var find: Double
    var findByLabel: Double
    /// Finds by kSecAttrLabel per second.
    var findByName: Double
    var peakMemoryMiB: Double
}

/// How many finds each measure times: 5,000 at every size, so that every size is measured
/// with its caches as warm as the others' (a handful of finds at a large size would time
/// cold page reads, and the smallest size warm ones), unless finds are so slow (each reading
/// every key) that 5,000 would take over a minute: then as many as fit in a minute at the
/// rate of a first few, and at least a few per round.
func keyLookupCount(rate: Double) -> Int {
    max(rounds * 4, min(5_000, Int(rate * 60)))
}

func keyTag(_ index: Int) -> Data {
    Data("com.example.bench.key.\(index)".utf8)
}

func keyName(_ index: Int) -> String {
    "Bench signing key \(index)"
}

/// Adds `size` P-256 private keys, each with SecItemAdd, kSecValueRef and its own
/// kSecAttrApplicationTag and kSecAttrLabel, then times finds of random keys by tag, by
/// application label and by kSecAttrLabel, with kSecReturnRef.
func runKeyLookups(size: Int) -> KeyLookupFigures {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("keychain-benchmark-keys-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = KeychainEnvironment(directory: directory, accessGroups: ["bench"])
    return KeychainEnvironment.withValue(environment) {
        let parameters = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                          kSecAttrKeySizeInBits as String: 256] as CFDictionary
        // Each key's application label, by index, as SecKeyCopyAttributes gives it.
        var labels: [Data] = []
        let add = measure(size, prepare: { index -> CFDictionary in
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateRandomKey(parameters, &error),
                  let label = (SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrApplicationLabel as String] as? Data
            else {
                FileHandle.standardError.write(Data("benchmark: SecKeyCreateRandomKey failed\n".utf8))
                exit(1)
            }
            labels.append(label)
            return [kSecClass as String: kSecClassKey,
                    kSecAttrApplicationTag as String: keyTag(index),
                    kSecAttrLabel as String: keyName(index),
                    kSecValueRef as String: key] as CFDictionary
        }) { attributes in
            expectSuccess(SecItemAdd(attributes, nil), "add of a key")
        }
        let added = max(1, size / rounds) * rounds
        var generator = SystemRandomNumberGenerator()
        // `count` random finds of a key by one attribute, each returning the key.
        func finds(by attribute: CFString, named what: String, value: @escaping (Int) -> Any) -> (Int) -> Double {
            { count in
                measure(count, prepare: { _ -> CFDictionary in
                    [kSecClass as String: kSecClassKey,
                     attribute as String: value(Int.random(in: 0..<added, using: &generator)),
                     kSecReturnRef as String: true] as CFDictionary
                }) { query in
                    var result: CFTypeRef?
                    expectSuccess(SecItemCopyMatching(query, &result), "find of a key by \(what)")
                    precondition(CFGetTypeID(result) == SecKeyGetTypeID())
                }
            }
        }
        let findByTag = finds(by: kSecAttrApplicationTag, named: "tag", value: keyTag)
        let count = keyLookupCount(rate: findByTag(rounds * 4))
        let find = findByTag(count)
        let findByLabel = finds(by: kSecAttrApplicationLabel, named: "application label") { labels[$0] }(count)
        let findByName = finds(by: kSecAttrLabel, named: "kSecAttrLabel", value: keyName)
        let byName = findByName(keyLookupCount(rate: findByName(rounds * 4)))
        return KeyLookupFigures(size: size, add: add, find: find, findByLabel: findByLabel, findByName: byName,
                                peakMemoryMiB: peakMemoryMiB())
    }
}

/// Runs each size in a child process and prints the table and a one-line verdict: lookups
/// pass when, by tag and by label, the largest size finds at least half as many keys per
/// second as the smallest.
func printKeyLookupTable(sizes: [Int]) throws -> Never {
    var table: [KeyLookupFigures] = []
    for size in sizes {
        FileHandle.standardError.write(Data("keychain-benchmark: \(size) keys\n".utf8))
        table.append(try inChild(["--child", "--keys", String(size)], size: size))
    }
    print("Find a key by kSecAttrApplicationTag, kSecAttrApplicationLabel or kSecAttrLabel with kSecReturnRef, per second (median of \(rounds) rounds)")
    print("N P-256 keys added with SecItemAdd + kSecValueRef + a distinct tag and kSecAttrLabel, then random finds by each")
    print("      keys |     add/s | by tag/s | µs per find | by app label/s | by kSecAttrLabel/s | peak MiB")
    print("-----------+-----------+----------+-------------+----------------+--------------------+---------")
    for row in table {
        print("\(cell(Double(row.size))) | \(cell(row.add)) | \(cell(row.find, 8)) | \(microseconds(1e6 / row.find, 11))"
              + " | \(cell(row.findByLabel, 14)) | \(String(format: "%18.1f", row.findByName)) | \(String(format: "%8.1f", row.peakMemoryMiB))")
    }
    guard let first = table.first, let last = table.last, table.count > 1 else { exit(0) }
    let slowdown = first.find / last.find
    let labelSlowdown = first.findByLabel / last.findByLabel
    let nameSlowdown = first.findByName / last.findByName
    let perKey = (1e6 / last.find - 1e6 / first.find) / Double(last.size - first.size) * 1_000
    print(String(format: "find by tag at %d keys is %.2fx slower than at %d keys (%.0f ns more per key in the keychain); by application label %.2fx; by kSecAttrLabel %.2fx",
                 last.size, slowdown, first.size, perKey, labelSlowdown, nameSlowdown))
    if slowdown <= 2 && labelSlowdown <= 2 && nameSlowdown <= 2 {
        print("verdict: PASS (finding a key by tag, application label or kSecAttrLabel stays flat from \(first.size) to \(last.size) keys)")
    } else {
        print(String(format: "verdict: FAIL (finding a key grows with the number of keys: %.1fx slower by tag, %.1fx by application label, %.1fx by kSecAttrLabel at %d keys than at %d)",
                     slowdown, labelSlowdown, nameSlowdown, last.size, first.size))
    }
    exit(0)
}
