// A second process for the tests: it uses the keychain exactly as any program does, with
// the default environment (XDG_DATA_HOME, KEYCHAIN_ACCESS_GROUPS, entitlements file).
//
//   KeychainTestHelper groups                          print this process's access groups
//   KeychainTestHelper add ACCOUNT SECRET [START]      add one generic password, print the status
//   KeychainTestHelper add-many PREFIX COUNT           add COUNT items, print how many succeeded
//   KeychainTestHelper find ACCOUNT                    print the status and the secret
//   KeychainTestHelper find-key TAG                    find the key item with application tag
//                                                      TAG by kSecReturnRef; print the status,
//                                                      "private" or "public" and the hex of
//                                                      its public key (never private material)
//   KeychainTestHelper sign-key TAG MESSAGE [ALGORITHM]
//                                                      find the private key with application tag
//                                                      TAG by kSecReturnRef and sign MESSAGE
//                                                      (ECDSA, SHA-256, or the SecKeyAlgorithm
//                                                      whose identifier is ALGORITHM); print the
//                                                      search's status alone when it fails, else
//                                                      "0" and the signature's hex or "error CODE"
//   KeychainTestHelper make-se-key TAG [presence]      make a permanent Secure Enclave-style key
//                                                      with application tag TAG (whose use needs
//                                                      the user's presence with "presence");
//                                                      print "0", where
//                                                      its private part is ("tpm" or "sealed")
//                                                      and its public key's hex, or "error CODE"
//   KeychainTestHelper lock                            lock the default keychain, print the status
//   KeychainTestHelper unlock PASSWORD                 unlock it, print the status
//   KeychainTestHelper cycle-passwords NAME [N]        change keychain NAME's password from
//                                                      "pw-N" (N 0 or 1, default 0) to the
//                                                      other, and back, ... until killed,
//                                                      printing each change's number
//   KeychainTestHelper remanence-hold NAME ACCOUNT     hold keychain NAME open (RemanenceHolder)
//   KeychainTestHelper trust-concurrently LEAF ANCHOR N
//                                                      evaluate the DER certificate LEAF
//                                                      anchored at ANCHOR from N Swift tasks at
//                                                      once, each blocking its thread; print how
//                                                      many were trusted
//
// START is a time (seconds since 1970) to wait for, so that racing processes call at once.
// It is also the worker process of the proof suites (see KeychainProof's WorkerCommand),
// the power-loss and I/O-fault workers included.
import Foundation
import KeychainProof
import Security

func item(_ account: String) -> [String: Any] {
    [kSecClass as String: kSecClassGenericPassword,
     kSecAttrService as String: "helper.example.com",
     kSecAttrAccount as String: account]
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "groups":
    print(KeychainEnvironment.current.accessGroups.joined(separator: ","))
case "add" where arguments.count >= 3:
    if arguments.count >= 4, let start = Double(arguments[3]) {
        let wait = start - Date().timeIntervalSince1970
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
    }
    let query = item(arguments[1]).merging([kSecValueData as String: Data(arguments[2].utf8)]) { $1 }
    print(SecItemAdd(query as CFDictionary, nil))
case "add-many" where arguments.count == 3:
    var succeeded = 0
    for index in 0..<(Int(arguments[2]) ?? 0) {
        let query = item("\(arguments[1])-\(index)").merging([kSecValueData as String: Data("secret-\(index)".utf8)]) { $1 }
        if SecItemAdd(query as CFDictionary, nil) == errSecSuccess { succeeded += 1 }
    }
    print(succeeded)
case "find" where arguments.count == 2:
    var result: CFTypeRef?
    let status = SecItemCopyMatching(item(arguments[1]).merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result)
    print(status, (result as? Data).map { String(decoding: $0, as: UTF8.self) } ?? "")
case "trust-concurrently" where arguments.count == 4:
    guard let leaf = FileManager.default.contents(atPath: arguments[1]).flatMap({ SecCertificateCreateWithData(nil, $0 as CFData) }),
          let anchor = FileManager.default.contents(atPath: arguments[2]).flatMap({ SecCertificateCreateWithData(nil, $0 as CFData) }),
          let count = Int(arguments[3]), count > 0
    else {
        print("usage: trust-concurrently LEAF ANCHOR N")
        exit(2)
    }
    let trusted = TrustedCount()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    var trust: SecTrust?
                    guard SecTrustCreateWithCertificates(leaf, nil, &trust) == errSecSuccess, let trust else { return false }
                    SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
                    return SecTrustEvaluateWithError(trust, nil)
                }
            }
            for await verdict in group where verdict { trusted.add() }
        }
        done.signal()
    }
    done.wait()
    print(trusted.value)
case "find-key" where arguments.count == 2:
    var result: CFTypeRef?
    let status = SecItemCopyMatching([
        kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(arguments[1].utf8),
        kSecReturnRef as String: true,
    ] as CFDictionary, &result)
    guard let key = result as? SecKey, let publicKey = SecKeyCopyPublicKey(key),
          let bytes = SecKeyCopyExternalRepresentation(publicKey, nil) as Data? else {
        print(status)
        break
    }
    let kind = publicKey === key ? "public" : "private"
    print(status, kind, bytes.map { String(format: "%02x", $0) }.joined())
case "sign-key" where arguments.count == 3 || arguments.count == 4:
    var result: CFTypeRef?
    let status = SecItemCopyMatching([
        kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(arguments[1].utf8),
        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true,
    ] as CFDictionary, &result)
    guard status == errSecSuccess, let key = result as? SecKey else {
        print(status)
        break
    }
    var error: Unmanaged<CFError>?
    let algorithm = arguments.count == 4 ? SecKeyAlgorithm(arguments[3] as CFString) : .ecdsaSignatureMessageX962SHA256
    if let signature = SecKeyCreateSignature(key, algorithm, Data(arguments[2].utf8) as CFData, &error) as Data? {
        print(status, signature.map { String(format: "%02x", $0) }.joined())
    } else {
        print(status, "error", error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)
    }
case "make-se-key" where arguments.count == 2 || (arguments.count == 3 && arguments[2] == "presence"):
    var error: Unmanaged<CFError>?
    var privateAttributes: [String: Any] = [kSecAttrIsPermanent as String: true,
                                            kSecAttrApplicationTag as String: Data(arguments[1].utf8)]
    if arguments.count == 3 {
        privateAttributes[kSecAttrAccessControl as String] = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], nil)
    }
    let parameters: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
        kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave, kSecPrivateKeyAttrs as String: privateAttributes,
    ]
    guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error), let publicKey = SecKeyCopyPublicKey(key),
          let bytes = SecKeyCopyExternalRepresentation(publicKey, nil) as Data? else {
        print("error", error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)
        break
    }
    // The key's description says where its private part is (never what it is).
    let place = String(describing: key).contains("held in a TPM") ? "tpm" : "sealed"
    print(0, place, bytes.map { String(format: "%02x", $0) }.joined())
case "lock":
    print(SecKeychainLock(nil))
case "unlock" where arguments.count == 2:
    let password = Array(arguments[1].utf8)
    print(SecKeychainUnlock(nil, UInt32(password.count), password, true))
case "cycle-passwords" where arguments.count == 2 || arguments.count == 3:
    var keychain: SecKeychain?
    _ = SecKeychainOpen(arguments[1], &keychain)
    // The keychain's password now: the caller knows it from the changes it saw acknowledged.
    guard let start = arguments.count == 3 ? Int(arguments[2]) : 0, start == 0 || start == 1 else {
        print("failed the current password must be 0 or 1")
        exit(2)
    }
    var count = 0
    while true {
        let old = Array("pw-\((start + count) % 2)".utf8), new = Array("pw-\((start + count + 1) % 2)".utf8)
        let status = SecKeychainChangePassword(keychain, UInt32(old.count), old, UInt32(new.count), new)
        guard status == errSecSuccess else { print("failed", status); exit(1) }
        count += 1
        FileHandle.standardOutput.write(Data("\(count)\n".utf8))
    }
case "crash-keychain-writer", "crash-keychain-verify":
    // The keychain crash run's workers (see KeychainProof's CrashKeychainCommand).
    exit(CrashKeychainCommand.run(arguments) ? 0 : 2)
case "remanence-hold":
    // The remanence suite's process that holds a keychain open (it never returns).
    exit(RemanenceHolder.run(arguments) ? 0 : 2)
default:
    if WorkerCommand.run(arguments) { exit(0) }
    FileHandle.standardError.write(Data("usage: KeychainTestHelper groups | add ACCOUNT SECRET [START] | add-many PREFIX COUNT | find ACCOUNT | lock | unlock PASSWORD\n".utf8))
    exit(2)
}

/// The number of trusted verdicts, counted from the task group.
final class TrustedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
