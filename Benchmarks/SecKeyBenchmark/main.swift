// What SecKey adds to a signature: sign and verify per second for P-256 (ECDSA, SHA-256) and
// RSA-2048 (PKCS #1 v1.5, SHA-256) through SecKeyCreateSignature / SecKeyVerifySignature,
// against swift-crypto (and CryptoExtras) called directly with the same keys, doing the same
// job: bytes in, signature bytes out (DER for ECDSA, as SecKey gives and takes). Medians
// over several rounds; the last line says whether SecKey's overhead stays under 10%.
//
//   swift run -c release keychain-seckey-benchmark [--rounds N] [--seconds S]
import Crypto
import CryptoExtras
import Foundation
import Security

func fail(_ what: String) -> Never {
    FileHandle.standardError.write(Data("keychain-seckey-benchmark: \(what)\n".utf8))
    exit(1)
}

var rounds = 5
var secondsPerRound = 0.5
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = arguments.popFirst().flatMap(Int.init) ?? rounds
    case "--seconds": secondsPerRound = arguments.popFirst().flatMap(Double.init) ?? secondsPerRound
    default: fail("usage: keychain-seckey-benchmark [--rounds N] [--seconds S]")
    }
}

/// Operations per second of `body`, run for about `secondsPerRound`.
@MainActor func rate(_ body: () -> Void) -> Double {
    var count = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: UInt64 = 0
    repeat {
        body()
        count += 1
        elapsed = DispatchTime.now().uptimeNanoseconds - start
    } while Double(elapsed) < secondsPerRound * 1e9
    return Double(count) / (Double(elapsed) / 1e9)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Medians of SecKey's and the direct call's rates, measured in alternating rounds so
/// that the machine's load falls on both alike.
@MainActor func compare(_ secKey: () -> Void, _ direct: () -> Void) -> (secKey: Double, direct: Double) {
    var viaSecKey: [Double] = []
    var viaDirect: [Double] = []
    for _ in 0..<rounds {
        viaSecKey.append(rate(secKey))
        viaDirect.append(rate(direct))
    }
    return (median(viaSecKey), median(viaDirect))
}

let message = Data(repeating: 0x5A, count: 256)

func secKey(_ external: Data, type: CFString) -> SecKey {
    let attributes: [String: Any] = [kSecAttrKeyType as String: type, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
    guard let key = SecKeyCreateWithData(external as CFData, attributes as CFDictionary, nil) else { fail("key creation") }
    return key
}

// P-256.
let ecKey = P256.Signing.PrivateKey()
let ecSecKey = secKey(ecKey.x963Representation, type: kSecAttrKeyTypeECSECPrimeRandom)
guard let ecPublicSecKey = SecKeyCopyPublicKey(ecSecKey) else { fail("public key") }
guard let ecSignature = SecKeyCreateSignature(ecSecKey, .ecdsaSignatureMessageX962SHA256, message as CFData, nil),
      let ecDirectSignature = try? ecKey.signature(for: message).derRepresentation else { fail("EC signature") }

// RSA-2048.
guard let rsaKey = try? _RSA.Signing.PrivateKey(keySize: .bits2048) else { fail("RSA key") }
let rsaSecKey = secKey(rsaKey.derRepresentation, type: kSecAttrKeyTypeRSA)
guard let rsaPublicSecKey = SecKeyCopyPublicKey(rsaSecKey) else { fail("public key") }
guard let rsaSignature = SecKeyCreateSignature(rsaSecKey, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, nil),
      let rsaDirectSignature = try? rsaKey.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5).rawRepresentation else {
    fail("RSA signature")
}

let rows: [(String, (secKey: Double, direct: Double))] = [
    ("P-256 sign", compare({ _ = SecKeyCreateSignature(ecSecKey, .ecdsaSignatureMessageX962SHA256, message as CFData, nil) },
                           { _ = try? ecKey.signature(for: message).derRepresentation })),
    ("P-256 verify", compare({ _ = SecKeyVerifySignature(ecPublicSecKey, .ecdsaSignatureMessageX962SHA256, message as CFData, ecSignature, nil) },
                             { _ = (try? P256.Signing.ECDSASignature(derRepresentation: ecDirectSignature))
                                 .map { ecKey.publicKey.isValidSignature($0, for: message) } })),
    ("RSA-2048 sign", compare({ _ = SecKeyCreateSignature(rsaSecKey, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, nil) },
                              { _ = try? rsaKey.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5).rawRepresentation })),
    ("RSA-2048 verify", compare({ _ = SecKeyVerifySignature(rsaPublicSecKey, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, rsaSignature, nil) },
                                { _ = rsaKey.publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: rsaDirectSignature),
                                                                        for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5) })),
]

func column(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
print("\(column("operation", 16)) | \(column("SecKey/s", 10)) | \(column("direct/s", 10)) | overhead")
var worst = 0.0
for (name, result) in rows {
    let overhead = result.direct / result.secKey - 1
    worst = max(worst, overhead)
    print("\(column(name, 16)) | \(column(String(format: "%.0f", result.secKey), 10)) | \(column(String(format: "%.0f", result.direct), 10)) | \(String(format: "%+.1f%%", overhead * 100))")
}
print("overhead under 10%: \(worst < 0.10 ? "yes" : "no") (largest \(String(format: "%.1f%%", worst * 100)))")
