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
            // As the Secret Service API has it: an alias that names a collection gives it, and
            // nothing is made.
            if let existing = aliasTarget(alias) {
                try reply(to: request) { (writer) throws(BusFailure) in
                    try writer.objectPath(existing)
                    try writer.objectPath(SecretObject.none)
                }
                return
            }
            if alias == "login" {
                throw .notSupported("the alias 'login' names the login keychain, which does not exist yet: its "
                                    + "first use makes it, or keychainctl create-keychain login")
            }
            // Any other alias that names nothing yet will name the new collection.
            if !alias.isEmpty { try CollectionAliases.checkName(alias) }
            guard PasswordAsker.available() != nil else { throw .noPrompterForNewPassword }
            // The keychain is made once its password is chosen: the prompt's Completed names it.
            let prompt = try prompts.create(for: request.sender,
                                            .createCollection(label: label, alias: alias.isEmpty ? nil : alias))
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
                guard case .item(let name, let reference)? = self.secretObject(at: path) else { return nil }
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
            let name = try arguments.string()
            let path = try arguments.objectPath()
            try setAlias(name, to: path)
            try reply(to: request) { _ throws(BusFailure) in }
            // Collections lists the default first.
            if name == "default" {
                emitPropertiesChanged(SecretObject.service.interface, on: SecretObject.servicePath, ["Collections"])
            }
        default:
            throw .notSupported("org.freedesktop.Secret.Service has no method \(member)")
        }
    }

    func serviceProperty(_ property: String, _ writer: MessageWriter) throws(BusFailure) {
        guard property == "Collections" else { throw .invalidArguments("no property \(property)") }
        try writer.objectPaths(keychains.names().map(SecretObject.collectionPath) + [SessionCollection.path])
    }

    /// The collection the alias `name` names: `default` the default keychain's, `login` the
    /// login keychain's while it exists, `session` the session collection; any other the
    /// collection SetAlias made it name, while that exists (``CollectionAliases``); else nil.
    func aliasTarget(_ name: String) -> String? {
        switch name {
        case "default": SecretObject.collectionPath(keychains.defaultName())
        case "login": keychains.exists("login") ? SecretObject.collectionPath("login") as String? : nil
        case SessionCollection.name: SessionCollection.path
        default:
            switch (try? keychains.aliases.target(of: name)) ?? nil {
            case let keychain? where keychain == SessionCollection.name || keychains.exists(keychain):
                SecretObject.collectionPath(keychain)
            default: nil
            }
        }
    }

    /// The aliases' names the provider keeps itself, which SetAlias cannot move elsewhere
    /// (but `default`, which names the default keychain).
    static let ownAliases: Set<String> = ["default", "login", SessionCollection.name]

    /// SetAlias: makes the alias `name` name the collection at `path` ("/" removes it).
    ///
    /// `default` names the default keychain: setting it makes another keychain the default
    /// for every program of the user, from now on (SecKeychainSetDefault); removing it makes
    /// `login` the default again, so that ReadAlias still finds a collection, as GNOME Keyring
    /// answers. `login` and `session` always name their own collections. Any other name of
    /// letters, digits and `_` is kept across restarts (``CollectionAliases``).
    private func setAlias(_ name: String, to path: String) throws(BusFailure) {
        if !Self.ownAliases.contains(name) { try CollectionAliases.checkName(name) }
        let target = try aliasCollection(path)
        switch name {
        case "default":
            guard target != SessionCollection.name else {
                throw .notSupported("the session collection cannot be the default: it is kept in memory only")
            }
            try keychains.setDefault(target)
        case "login", SessionCollection.name:
            guard let target, aliasTarget(name) == SecretObject.collectionPath(target) else {
                throw .notSupported("'login' and 'session' always name their own collections")
            }
        default:
            try keychains.aliases.set(name, to: target)
        }
    }

    /// The collection SetAlias's `path` names: its keychain's name (the session
    /// collection's name for it), or nil for "/". A path of no collection is InvalidArgs, as
    /// GNOME Keyring answers; a collection that is not there NoSuchObject.
    private func aliasCollection(_ path: String) throws(BusFailure) -> String? {
        if path == SecretObject.none { return nil }
        switch secretObject(at: path) {
        case .collection(let name)?:
            let keychain = name ?? keychains.defaultName()
            guard keychain == SessionCollection.name || keychains.exists(keychain) else { throw .noSuchObject(path) }
            return keychain
        case nil where path.hasPrefix(SecretObject.collectionPrefix) || path.hasPrefix(SecretObject.aliasPrefix):
            throw .noSuchObject(path)
        default:
            throw .invalidArguments("\(path) is not the path of a collection")
        }
    }

    /// The collection of the collection or item at `path` that exists now (the session
    /// collection's name for it and its items); NoSuchObject for a path that names no
    /// collection or item of this provider, or one of a keychain that is not there.
    private func existingCollectionName(of path: String) throws(BusFailure) -> String {
        guard let name = collectionName(of: path) else { throw .noSuchObject(path) }
        if name == SessionCollection.name {
            if case .item(_, let reference)? = secretObject(at: path), sessionCollection.item(reference) == nil {
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
        switch secretObject(at: path) {
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
