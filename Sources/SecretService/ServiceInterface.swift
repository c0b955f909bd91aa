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
            let label = try collectionLabel(arguments)
            let alias = try arguments.string()
            // The spec's rule: an alias that names a collection gives it, and nothing is made.
            if let existing = aliasTarget(alias) {
                try reply(to: request) { (writer) throws(BusFailure) in
                    try writer.objectPath(existing)
                    try writer.objectPath(SecretObject.none)
                }
                return
            }
            guard alias.isEmpty else {
                throw .notSupported("only the aliases 'default', 'login' and 'session' exist here; "
                                    + "create the collection without an alias")
            }
            guard PasswordAsker.available() != nil else { throw .noPrompterForNewPassword }
            // The keychain is made once its password is chosen: the prompt's Completed names it.
            let prompt = try prompts.create(for: request.sender, .createCollection(label: label))
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPath(SecretObject.none)
                try writer.objectPath(prompt.path)
            }
        case "SearchItems":
            // Every collection is searched. Locked items are named only when a prompt can
            // unlock them. A locked keychain whose matches cannot be told without opening it
            // is left out, so that it does not stop searches of the others; when nothing was
            // found at all, the answer is its IsLocked, which says how to unlock it.
            let query = try arguments.attributes()
            // Looked for along PATH only when a keychain is locked, once.
            var canPrompt: Bool?
            let namingLocked = { () -> Bool in
                if let canPrompt { return canPrompt }
                let found = PasswordAsker.available() != nil
                canPrompt = found
                return found
            }
            var unlocked: [String] = []
            var locked: [String] = []
            var unsearched: BusFailure?
            for name in keychains.names() {
                // A keychain deleted since the list was read has no items.
                guard let items = try? keychains.items(in: name) else { continue }
                do throws(BusFailure) {
                    let found = try items.searchSplittingLocked(query, namingLocked: namingLocked)
                    unlocked += found.unlocked
                    locked += found.locked
                    lockedMatches.found(found.locked, by: query)
                } catch where error.name == BusFailure.isLockedName {
                    unsearched = unsearched ?? error
                }
            }
            if let unsearched, unlocked.isEmpty, locked.isEmpty { throw unsearched }
            unlocked += sessionCollection.search(query).map { sessionCollection.object($0).path }
            try replyLimit.check([unlocked, locked], matched: "SearchItems matched \(unlocked.count + locked.count) items")
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(unlocked)
                try writer.objectPaths(locked)
            }
        case "Unlock":
            // A collection and its items share their keychain's lock: a keychain without a
            // password unlocks at once; those with one are asked for by one prompt, in turn.
            // A path that names nothing here is NoSuchObject, as a call on it would be, and
            // then nothing is unlocked. The session collection is never locked.
            let named = try arguments.objectPaths(limit: Limits.pathsPerCall).map { path throws(BusFailure) in
                (path, try existingCollectionName(of: path))
            }
            var ready: [String] = []
            var waiting: [String] = []
            var toAsk: [String] = []
            var unlockedNow: [String] = []
            // Each keychain is looked at once, however many of its objects are named.
            var isReady: [String: Bool] = [:]
            for (path, name) in named {
                if name == SessionCollection.name {
                    ready.append(path)
                    continue
                }
                if isReady[name] == nil {
                    let items = try keychains.items(in: name)
                    if try !items.isLocked() {
                        isReady[name] = true
                    } else if try items.unlockWithoutPassword() {
                        unlockedNow.append(name)
                        isReady[name] = true
                    } else {
                        toAsk.append(name)
                        isReady[name] = false
                    }
                }
                if isReady[name] == true { ready.append(path) } else { waiting.append(path) }
            }
            let prompt = waiting.isEmpty
                ? SecretObject.none
                : try prompts.create(for: request.sender, .unlock(keychains: toAsk, objects: waiting)).path
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(ready)
                try writer.objectPath(prompt)
            }
            unlockedNow.forEach(lockChanged)
        case "Lock":
            // Locks each keychain named for every process of the user, as SecKeychainLock does.
            var objects: [String] = []
            var lockedNow: [String] = []
            // A path that names nothing here is NoSuchObject, and then nothing is locked.
            let named = try arguments.objectPaths(limit: Limits.pathsPerCall).map { path throws(BusFailure) in
                (path, try existingCollectionName(of: path))
            }
            for (path, name) in named {
                // The session collection has no password to lock it with: it is not locked,
                // and left out of the answer, as the API allows.
                if name == SessionCollection.name { continue }
                if !lockedNow.contains(name) {
                    try keychains.items(in: name).lock()
                    lockedNow.append(name)
                }
                objects.append(path)
            }
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(objects)
                try writer.objectPath(SecretObject.none)
            }
            lockedNow.forEach(lockChanged)
        case "GetSecrets":
            let paths = try arguments.objectPaths(limit: Limits.pathsPerCall)
            let session = try arguments.objectPath()
            let transport = try sessions.transport(of: session, for: request.sender)
            // Items that are not there are left out, as the API says; an item named twice is
            // answered once (the reply is a dictionary by path).
            var named = Set<String>()
            // Each keychain is resolved once, however many of its items are named.
            var keychainsNamed: [String?: KeychainItems?] = [:]
            var sessionItems: [Data] = []
            let items = paths.compactMap { path -> (KeychainItems, Data)? in
                guard case .item(let name, let reference)? = SecretObject(path: path) else { return nil }
                if name == SessionCollection.name {
                    if named.insert(sessionCollection.object(reference).path).inserted { sessionItems.append(reference) }
                    return nil
                }
                if keychainsNamed[name] == nil { keychainsNamed[name] = .some(try? self.keychain(name)) }
                guard let keychain = keychainsNamed[name] ?? nil,
                      named.insert(keychain.object(reference).path).inserted else { return nil }
                return (keychain, reference)
            }
            try reply(to: request, sensitive: true) { (writer) throws(BusFailure) in
                try writer.open("a", "{o(oayays)}")
                var replyBytes = 0
                // One entry of the reply, the secret zeroed once it is written.
                func append(_ found: (value: Data, contentType: String)?, path: String) throws(BusFailure) {
                    guard case (var secret, let contentType)? = found else { return }
                    defer { secret.zero() }
                    replyBytes += secret.count
                    guard replyBytes <= Limits.secretBytesPerReply else {
                        throw .invalidArguments("the secrets asked for add up to more than \(Limits.secretBytesPerReply) "
                                                + "bytes; ask for fewer at once")
                    }
                    try writer.open("e", "o(oayays)")
                    try writer.objectPath(path)
                    try TransferredSecret.write(secret, contentType: contentType, session: session, transport: transport,
                                                to: writer)
                    try writer.close()
                }
                for (keychain, reference) in items {
                    try append(try keychain.secret(of: reference), path: keychain.object(reference).path)
                }
                for reference in sessionItems {
                    try append(sessionSecret(of: reference), path: sessionCollection.object(reference).path)
                }
                try writer.close()
            }
        case "ReadAlias":
            let path = aliasTarget(try arguments.string()) ?? SecretObject.none
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPath(path) }
        case "SetAlias":
            // `default` is the default keychain: setting it makes another keychain the default
            // for every program of the user, from now on (SecKeychainSetDefault).
            let name = try arguments.string()
            let path = try arguments.objectPath()
            guard name == "default" else {
                // `login` and `session` always name their own collections: setting one to it
                // changes nothing; other aliases are not kept.
                if let target = aliasTarget(name), SecretObject(path: path)?.path == target {
                    return try reply(to: request) { _ throws(BusFailure) in }
                }
                throw .notSupported("only the alias 'default' can be set here; 'login' and 'session' always name "
                                    + "their own collections")
            }
            switch SecretObject(path: path) {
            case .collection(let keychain?)? where keychain == SessionCollection.name:
                throw .notSupported("the session collection cannot be the default: it is kept in memory only")
            case .collection(let keychain?)?: try keychains.setDefault(keychain)
            case .collection(nil)?: break
            default:
                if path == SecretObject.none { throw .notSupported("the alias 'default' cannot be removed") }
                throw .noSuchObject(path)
            }
            try reply(to: request) { _ throws(BusFailure) in }
            // Collections lists the default first.
            emitPropertiesChanged(SecretObject.service.interface, on: SecretObject.servicePath, ["Collections"])
        default:
            throw .notSupported("org.freedesktop.Secret.Service has no method \(member)")
        }
    }

    func serviceProperty(_ property: String, _ writer: MessageWriter) throws(BusFailure) {
        guard property == "Collections" else { throw .invalidArguments("no property \(property)") }
        try writer.objectPaths(keychains.names().map(SecretObject.collectionPath) + [SessionCollection.path])
    }

    /// The collection the alias `name` names: `default` the default keychain's, `login` the
    /// login keychain's while it exists, `session` the session collection; nil for any other.
    func aliasTarget(_ name: String) -> String? {
        switch name {
        case "default": SecretObject.collectionPath(keychains.defaultName())
        case "login": keychains.exists("login") ? SecretObject.collectionPath("login") as String? : nil
        case SessionCollection.name: SessionCollection.path
        default: nil
        }
    }

    /// The collection of the collection or item at `path` that exists now (the session
    /// collection's name for it and its items); NoSuchObject for a path that names no
    /// collection or item of this provider, or one of a keychain that is not there.
    private func existingCollectionName(of path: String) throws(BusFailure) -> String {
        guard let name = collectionName(of: path) else { throw .noSuchObject(path) }
        if name == SessionCollection.name {
            if case .item(_, let reference)? = SecretObject(path: path), sessionCollection.item(reference) == nil {
                throw .noSuchObject(path)
            }
            return name
        }
        guard keychains.exists(name) else { throw .noSuchObject(path) }
        return name
    }

    /// The keychain of the collection or item at `path` (the alias `default` resolved); nil
    /// for any other path.
    private func collectionName(of path: String) -> String? {
        switch SecretObject(path: path) {
        case .collection(let name)?, .item(let name, _)?: name ?? keychains.defaultName()
        default: nil
        }
    }

    /// The label among CreateCollection's properties (`a{sv}`), or empty; others are ignored.
    private func collectionLabel(_ arguments: MessageReader) throws(BusFailure) -> String {
        var label = ""
        try arguments.enter("a", "{sv}")
        var count = 0
        while try arguments.enterIfAny("e", "sv") {
            count += 1
            guard count <= Limits.attributeCount else { throw .invalidArguments("too many collection properties") }
            let name = try arguments.string()
            let contents = try arguments.variantContents()
            if name == Self.collectionLabelProperty {
                guard contents == "s" else { throw .invalidArguments("\(name) takes an 's' value, not '\(contents)'") }
                try arguments.enter("v", "s")
                label = try arguments.string()
                try arguments.exit()
                guard label.utf8.count <= Limits.stringBytes else {
                    throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
                }
            } else {
                try arguments.skip()
            }
            try arguments.exit()
        }
        try arguments.exit()
        return label
    }
}
