import Keychain

func rememberDeployToken() async throws {
    let keychain = Keychain(service: "com.example.api")
    try await keychain.async.set("s3cr3t", forKey: "deploy-bot")       // adds, or updates the item there
    let token = try await keychain.async.string(forKey: "deploy-bot")  // nil when there is none
    print(token ?? "none")                                              // Prints: s3cr3t
    try await keychain.async.remove("deploy-bot")
    let known = try await keychain.async.contains("deploy-bot")
    print(known)                                                        // Prints: false
}

try await rememberDeployToken()
