// A program that does not hold the shared access group, beside keychain-share-writer and
// keychain-share-reader: it looks for their item and finds nothing.
//
//   keychain-share-outsider NAME
//
// It has no entitlements file, so its only group is its own name, keychain-share-outsider
// (the application identifier, as on Apple platforms). It tries twice: through its own
// groups, where the shared item is invisible, and by naming the shared group, which the
// keychain refuses with errSecMissingEntitlement.
import Foundation
import Keychain

let sharedGroup = "com.example.shared"
let service = "com.example.shared-secrets"

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: keychain-share-outsider NAME\n".utf8))
    exit(64)
}
let name = arguments[0]

func describe(_ read: () throws(KeychainError) -> String?) -> String {
    do throws(KeychainError) {
        guard let secret = try read() else { return "nothing found" }
        return "found \(secret)"
    } catch {
        if error.code == .missingEntitlement { return "refused, this program does not hold the group" }
        return "failed: \(error)"
    }
}

print("In my own access groups: " + describe { () throws(KeychainError) in
    try Keychain(service: service).string(forKey: name)
})
print("In \(sharedGroup): " + describe { () throws(KeychainError) in
    try Keychain(service: service, accessGroup: sharedGroup).string(forKey: name)
})
