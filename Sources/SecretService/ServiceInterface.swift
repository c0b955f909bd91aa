import Foundation

/// `org.freedesktop.Secret.Service` at `/org/freedesktop/secrets`.
extension SecretServiceProvider {
    func serviceMethod(_ member: String, _ request: Request) throws(BusFailure) {
        let arguments = request.arguments
        switch member {
        case "OpenSession":
            let algorithm = try arguments.string()
            // plain takes any input (libsecret sends an empty string); dh the client's key.
            var input: [UInt8]?
            if try arguments.variantContents() == "ay" {
                try arguments.enter("v", "ay")
                input = try arguments.bytes(limit: 1024, naming: "the session input")
                try arguments.exit()
            } else {
                try arguments.skip()
            }
            let (transport, output) = try SessionTransport.negotiate(algorithm, input: input)
            let session = try sessions.open(for: request.sender, transport: transport)
            try reply(to: request) { (writer) throws(BusFailure) in
                if let output {
                    try writer.open("v", "ay")
                    try writer.bytes(Data(output))
                } else {
                    try writer.open("v", "s")
                    try writer.string("")
                }
                try writer.close()
                try writer.objectPath(session.path)
            }
        case "CreateCollection":
            throw .notSupported("this provider has one collection, login (alias default); it cannot create others")
        case "SearchItems":
            // Locked items are named only when a prompt can unlock them.
            let (unlocked, locked) = try keychain.searchSplittingLocked(
                try arguments.attributes(), namingLocked: PasswordAsker.available() != nil)
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(unlocked)
                try writer.objectPaths(locked)
            }
        case "Unlock":
            // The collection and its items share the keychain's lock: all unlocked at once.
            let objects = try arguments.objectPaths(limit: Limits.pathsPerCall).filter(isCollectionOrItem)
            var prompt = SecretObject.none
            var unlockedNow = false
            if !objects.isEmpty, try keychain.isLocked() {
                unlockedNow = try keychain.unlockWithoutPassword()
                if !unlockedNow { prompt = try prompts.create(for: request.sender, objects: objects).path }
            }
            let unlocked = prompt == SecretObject.none ? objects : []
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(unlocked)
                try writer.objectPath(prompt)
            }
            if unlockedNow { lockChanged() }
        case "Lock":
            // Locks the keychain for every process of the user, as SecKeychainLock does.
            let objects = try arguments.objectPaths(limit: Limits.pathsPerCall).filter(isCollectionOrItem)
            if !objects.isEmpty {
                try keychain.lock()
                lockChanged()
            }
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(objects)
                try writer.objectPath(SecretObject.none)
            }
        case "GetSecrets":
            let paths = try arguments.objectPaths(limit: Limits.pathsPerCall)
            let session = try arguments.objectPath()
            let transport = try sessions.transport(of: session, for: request.sender)
            // Items that are not there are left out, as the API says; an item named twice is
            // answered once (the reply is a dictionary by path).
            var named = Set<Data>()
            let references = paths.compactMap { path -> Data? in
                guard case .item(let reference)? = SecretObject(path: path), named.insert(reference).inserted else { return nil }
                return reference
            }
            try reply(to: request, sensitive: true) { (writer) throws(BusFailure) in
                try writer.open("a", "{o(oayays)}")
                var replyBytes = 0
                for reference in references {
                    guard var (secret, contentType) = try keychain.secret(of: reference) else { continue }
                    defer { secret.zero() }
                    replyBytes += secret.count
                    guard replyBytes <= Limits.secretBytesPerReply else {
                        throw .invalidArguments("the secrets asked for add up to more than \(Limits.secretBytesPerReply) "
                                                + "bytes; ask for fewer at once")
                    }
                    try writer.open("e", "o(oayays)")
                    try writer.objectPath(SecretObject.item(reference: reference).path)
                    try TransferredSecret.write(secret, contentType: contentType, session: session, transport: transport,
                                                to: writer)
                    try writer.close()
                }
                try writer.close()
            }
        case "ReadAlias":
            let name = try arguments.string()
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPath(name == "default" ? SecretObject.collectionPath : SecretObject.none)
            }
        case "SetAlias":
            let name = try arguments.string()
            let path = try arguments.objectPath()
            guard name == "default" else { throw .notSupported("only the alias 'default' exists here") }
            guard SecretObject(path: path) == .collection else {
                if path == SecretObject.none { throw .notSupported("the alias 'default' cannot be removed") }
                throw .noSuchObject(path)
            }
            try reply(to: request) { _ throws(BusFailure) in }
        default:
            throw .notSupported("org.freedesktop.Secret.Service has no method \(member)")
        }
    }

    func serviceProperty(_ property: String, _ writer: MessageWriter) throws(BusFailure) {
        guard property == "Collections" else { throw .invalidArguments("no property \(property)") }
        try writer.objectPaths([SecretObject.collectionPath])
    }

    private func isCollectionOrItem(_ path: String) -> Bool {
        switch SecretObject(path: path) {
        case .collection?, .item?: true
        default: false
        }
    }
}
