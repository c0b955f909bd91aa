// Writes items that another program reads: the book chapter's second exercise, two apps
// sharing a keychain access group.
//
//   keychain-share-writer store NAME SECRET     save SECRET under NAME in the shared group
//   keychain-share-writer remove NAME           remove it
//
// The program holds the group com.example.shared through keychain-share-writer.entitlements,
// which must lie beside the executable (Scripts/sharing-demo puts it there). Without it the
// keychain refuses the group, as Apple's does for an app without the entitlement.
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
    switch (arguments.first, arguments.count) {
    case ("store", 3):
        try keychain.set(arguments[2], forKey: arguments[1])
        print("Stored \(arguments[1]) in the access group \(sharedGroup).")
    case ("remove", 2):
        let removed = try keychain.remove(arguments[1])
        print(removed ? "Removed \(arguments[1])." : "There was no \(arguments[1]) to remove.")
    default:
        fail("usage: keychain-share-writer store NAME SECRET | remove NAME", status: 64)
    }
} catch KeychainError.missingEntitlement {
    fail("""
        This program does not hold the access group \(sharedGroup). Place \
        keychain-share-writer.entitlements beside the executable (Scripts/sharing-demo does).
        """, status: 1)
} catch {
    fail("The keychain failed: \(error)", status: 2)
}
