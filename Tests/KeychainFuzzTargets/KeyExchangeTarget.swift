import Crypto
import Foundation
import Security

/// SecKeyCopyKeyExchangeResult on keys, algorithms and parameters built from the fuzzer's
/// bytes: our key on one of the three curves; the other key a public key of any curve, one
/// with changed bytes, bytes of the fuzzer's, or a private key; every key-exchange algorithm
/// and near misses; requestedSize and sharedInfo of every type. A trap, a hang, a status other
/// than errSecParam, errSecDecode or errSecUnimplemented, a result without its error or of
/// the wrong length, or a secret the other side does not share, is a bug.
enum KeyExchangeTarget {
    private static let algorithms: [SecKeyAlgorithm] = [
        .ecdhKeyExchangeStandard, .ecdhKeyExchangeStandardX963SHA1, .ecdhKeyExchangeStandardX963SHA224,
        .ecdhKeyExchangeStandardX963SHA256, .ecdhKeyExchangeStandardX963SHA384, .ecdhKeyExchangeStandardX963SHA512,
        .ecdhKeyExchangeCofactor, .ecdhKeyExchangeCofactorX963SHA1, .ecdhKeyExchangeCofactorX963SHA224,
        .ecdhKeyExchangeCofactorX963SHA256, .ecdhKeyExchangeCofactorX963SHA384, .ecdhKeyExchangeCofactorX963SHA512,
        SecKeyAlgorithm(rawValue: "algid:keyexchange:ECDH:KDFX963:SHA256:extra" as CFString),
        SecKeyAlgorithm(rawValue: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM" as CFString),
    ]

    /// Two fixed key pairs per curve (`04 ‖ X ‖ Y` and the scalar), so that every input is
    /// reproducible: scalars of repeated bytes, below each curve's order.
    private static let pairs: [[(point: Data, scalar: Data)]] = [
        ([0x11, 0x22] as [UInt8]).map { byte in
            let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: Data(repeating: byte, count: 32))
            return (key?.publicKey.x963Representation ?? Data(), key?.rawRepresentation ?? Data())
        },
        ([0x11, 0x22] as [UInt8]).map { byte in
            let key = try? P384.KeyAgreement.PrivateKey(rawRepresentation: Data(repeating: byte, count: 48))
            return (key?.publicKey.x963Representation ?? Data(), key?.rawRepresentation ?? Data())
        },
        ([0x11, 0x22] as [UInt8]).map { byte in
            let key = try? P521.KeyAgreement.PrivateKey(rawRepresentation: Data([0x00]) + Data(repeating: byte, count: 65))
            return (key?.publicKey.x963Representation ?? Data(), key?.rawRepresentation ?? Data())
        },
    ]

    private static let coordinateByteCounts = [32, 48, 66]

    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzBytes(bytes)
        let curve = input.choice(3)
        guard let ours = key(pairs[curve][0], isPrivate: true) else { fatalError("a fixed private key was refused") }
        let algorithm = algorithms[input.choice(algorithms.count)]

        // The other key, and whether it is the other fixed key of our curve, whose side can check the secret.
        var isPeerOfOurCurve = false
        let other: SecKey?
        switch input.choice(5) {
        case 0, 1:
            let otherCurve = input.choice(4) == 0 ? input.choice(3) : curve
            isPeerOfOurCurve = otherCurve == curve
            other = key(pairs[otherCurve][1], isPrivate: false)
        case 2:
            var point = pairs[curve][1].point
            for _ in 0...input.choice(3) where !point.isEmpty {
                point[input.choice(point.count)] ^= input.byte() | 1
            }
            other = key((point, Data()), isPrivate: false)
        case 3:
            other = key((Data(input.run()), Data()), isPrivate: false)
        default:
            other = key(pairs[input.choice(3)][1], isPrivate: true)
        }
        guard let other else { return }

        let parameters = NSMutableDictionary()
        let requestedSize = SecKeyKeyExchangeParameter.requestedSize.rawValue
        switch input.choice(8) {
        case 0: break
        case 1: parameters[requestedSize] = "32"
        case 2: parameters[requestedSize] = input.bool()
        case 3: parameters[requestedSize] = Int64(bitPattern: input.uint64())
        case 4: parameters[requestedSize] = Double(input.byte()) + 0.5
        default: parameters[requestedSize] = Int(input.byte()) << (input.choice(4) * 4)
        }
        switch input.choice(4) {
        case 0: break
        case 1: parameters[SecKeyKeyExchangeParameter.sharedInfo.rawValue] = String(decoding: input.run(), as: UTF8.self)
        default: parameters[SecKeyKeyExchangeParameter.sharedInfo.rawValue] = Data(input.run())
        }

        var error: Unmanaged<CFError>?
        let result = SecKeyCopyKeyExchangeResult(ours, algorithm, other, parameters, &error) as Data?
        let reported = error?.takeRetainedValue()
        guard let result else {
            guard let reported else { fatalError("\(algorithm.rawValue) failed without an error") }
            let status = OSStatus(CFErrorGetCode(reported))
            guard [errSecParam, errSecDecode, errSecUnimplemented].contains(status) else {
                fatalError("\(algorithm.rawValue) gave \(status), which SecKeyCopyKeyExchangeResult does not document")
            }
            return
        }
        guard reported == nil else { fatalError("\(algorithm.rawValue) succeeded and set an error") }
        let raw = algorithm == .ecdhKeyExchangeStandard || algorithm == .ecdhKeyExchangeCofactor
        if raw {
            guard result.count == coordinateByteCounts[curve] else { fatalError("a raw secret of \(result.count) bytes") }
        } else {
            guard let size = parameters[requestedSize] as? Int, result.count == size else {
                fatalError("\(result.count) bytes derived, not the size requested")
            }
        }
        // The other side computes the same secret from its private key and ours public.
        if isPeerOfOurCurve, let theirs = key(pairs[curve][1], isPrivate: true),
           let oursPublic = key(pairs[curve][0], isPrivate: false) {
            let mirrored = SecKeyCopyKeyExchangeResult(theirs, algorithm, oursPublic, parameters, nil) as Data?
            guard mirrored == result else { fatalError("the two sides of \(algorithm.rawValue) disagree") }
        }
    }

    private static func key(_ pair: (point: Data, scalar: Data), isPrivate: Bool) -> SecKey? {
        SecKeyCreateWithData((isPrivate ? pair.point + pair.scalar : pair.point) as CFData, [
            kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
        ] as CFDictionary, nil)
    }
}
