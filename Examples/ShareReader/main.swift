// Reads what keychain-share-writer stores, through the access group both programs hold:
// the book chapter's second exercise.
//
//   keychain-share-reader NAME     print the secret stored under NAME
//   keychain-share-reader          list the names in the shared group
//
// The program holds com.example.shared through keychain-share-reader.entitlements beside
// the executable (Scripts/sharing-demo puts it there).
import Foundation
import Keychain

let sharedGroup = "com.example.shared"
let keychain = Keychain(service: "com.example.shared-secrets", accessGroup: sharedGroup)

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do throws(KeychainError) {
    switch arguments.count {
    case 0:
        let names = try keychain.allKeys()
        print(names.isEmpty ? "The shared group holds nothing." : names.joined(separator: "\n"))
    case 1:
        guard let secret = try keychain.string(forKey: arguments[0]) else {
            fail("Nothing is stored under \(arguments[0]) in \(sharedGroup).", status: 1)
        }
        print("\(arguments[0]): \(secret)")
    default:
        fail("usage: keychain-share-reader [NAME]", status: 64)
    }
} catch KeychainError.missingEntitlement {
    fail("""
        This program does not hold the access group \(sharedGroup). Place \
        keychain-share-reader.entitlements beside the executable (Scripts/sharing-demo does).
        """, status: 1)
} catch {
    fail("The keychain failed: \(error)", status: 2)
}
