import Foundation

/// `org.freedesktop.Secret.Collection` and `Item` for the collection `session`
/// (``SessionCollection``), at `/org/freedesktop/secrets/collection/session`: the same
/// methods, properties and signals as a keychain's collection, over the provider's memory.
extension SecretServiceProvider {
    func sessionCollectionMethod(_ member: String, _ request: Request) throws(BusFailure) {
        let arguments = request.arguments
        switch member {
        case "SearchItems":
            let found = sessionCollection.search(try arguments.attributes()).map { sessionCollection.object($0).path }
            try replyLimit.check([found], matched: "SearchItems matched \(found.count) items in the session collection")
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPaths(found) }
        case "CreateItem":
            let (label, attributes) = try itemProperties(arguments)
            var secret = try TransferredSecret(reading: arguments)
            defer { secret.zero() }
            let replace = try arguments.boolean()
            var value = try secret.opened(with: try sessions.transport(of: secret.session, for: request.sender))
            defer { value.zero() }
            let item: SecretObject
            if replace, let existing = sessionCollection.same(attributes) {
                _ = try sessionCollection.update(existing, label: label, attributes: attributes, secret: value,
                                                 contentType: secret.contentType)
                item = sessionCollection.object(existing)
                sessionItemChanged(item, ["Label", "Attributes", "Modified"])
            } else {
                item = sessionCollection.object(try sessionCollection.add(
                    label: label, attributes: attributes, secret: value, contentType: secret.contentType))
                emit(Self.collectionInterface, "ItemCreated", on: SessionCollection.path, argument: item.path)
                emitPropertiesChanged(Self.collectionInterface, on: SessionCollection.path, ["Items"])
            }
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPath(item.path)
                try writer.objectPath(SecretObject.none)
            }
        case "Delete":
            // It is where clients keep what must not outlive the session; it stays for others.
            throw .notSupported("the session collection cannot be deleted; delete its items instead")
        default:
            throw .notSupported("\(Self.collectionInterface) has no method \(member)")
        }
    }

    func sessionCollectionProperty(_ property: String, _ writer: MessageWriter) throws(BusFailure) {
        switch property {
        case "Items":
            let items = sessionCollection.references.map { sessionCollection.object($0).path }
            try replyLimit.check([items], matched: "the session collection holds \(items.count) items")
            try writer.objectPaths(items)
        case "Label": try writer.string(sessionCollection.label)
        case "Locked": try writer.boolean(false)
        case "Created": try writer.uint64(sessionCollection.created)
        case "Modified": try writer.uint64(sessionCollection.modified)
        default: throw .invalidArguments("no property \(property)")
        }
    }

    func setSessionCollectionProperty(_ property: String, _ value: MessageReader) throws(BusFailure) {
        guard property == "Label" else { throw .invalidArguments("the property \(property) cannot be set") }
        let label = try value.string()
        guard label.utf8.count <= Limits.stringBytes else {
            throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
        }
        sessionCollection.setLabel(label)
        emit(SecretObject.service.interface, "CollectionChanged", on: SecretObject.servicePath,
             argument: SessionCollection.path)
        emitPropertiesChanged(Self.collectionInterface, on: SessionCollection.path, ["Label"])
    }

    func sessionItemMethod(_ member: String, _ reference: Data, _ request: Request) throws(BusFailure) {
        let path = sessionCollection.object(reference).path
        switch member {
        case "Delete":
            guard sessionCollection.delete(reference) else { throw .noSuchObject(path) }
            emit(Self.collectionInterface, "ItemDeleted", on: SessionCollection.path, argument: path)
            emitPropertiesChanged(Self.collectionInterface, on: SessionCollection.path, ["Items"])
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPath(SecretObject.none) }
        case "GetSecret":
            let session = try request.arguments.objectPath()
            let transport = try sessions.transport(of: session, for: request.sender)
            guard let item = sessionCollection.item(reference) else { throw .noSuchObject(path) }
            var secret = item.secret.withUnsafeBytes { Data($0) }
            defer { secret.zero() }
            try reply(to: request, sensitive: true) { (writer) throws(BusFailure) in
                try TransferredSecret.write(secret, contentType: item.contentType, session: session, transport: transport,
                                            to: writer)
            }
        case "SetSecret":
            var secret = try TransferredSecret(reading: request.arguments)
            defer { secret.zero() }
            var value = try secret.opened(with: try sessions.transport(of: secret.session, for: request.sender))
            defer { value.zero() }
            guard try sessionCollection.update(reference, secret: value, contentType: secret.contentType) else {
                throw .noSuchObject(path)
            }
            sessionItemChanged(sessionCollection.object(reference), ["Modified"])
            try reply(to: request) { _ throws(BusFailure) in }
        default:
            throw .notSupported("org.freedesktop.Secret.Item has no method \(member)")
        }
    }

    func sessionItemProperty(_ property: String, _ reference: Data, _ writer: MessageWriter) throws(BusFailure) {
        guard let item = sessionCollection.item(reference) else {
            throw .noSuchObject(sessionCollection.object(reference).path)
        }
        switch property {
        case "Locked": try writer.boolean(false)
        case "Attributes": try writer.attributes(item.attributes)
        case "Label": try writer.string(item.label)
        case "Created": try writer.uint64(item.created)
        case "Modified": try writer.uint64(item.modified)
        default: throw .invalidArguments("no property \(property)")
        }
    }

    func setSessionItemProperty(_ property: String, _ reference: Data, _ value: MessageReader) throws(BusFailure) {
        let changed: Bool
        switch property {
        case "Label":
            let label = try value.string()
            guard label.utf8.count <= Limits.stringBytes else {
                throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
            }
            changed = try sessionCollection.update(reference, label: label)
        case "Attributes":
            changed = try sessionCollection.update(reference, attributes: try value.attributes())
        default:
            throw .invalidArguments("the property \(property) cannot be set")
        }
        guard changed else { throw .noSuchObject(sessionCollection.object(reference).path) }
        sessionItemChanged(sessionCollection.object(reference), [property, "Modified"])
    }

    /// The secret of the session item `reference` and its content type, for GetSecrets; nil
    /// when there is none. The caller zeroes the secret.
    func sessionSecret(of reference: Data) -> (value: Data, contentType: String)? {
        guard let item = sessionCollection.item(reference) else { return nil }
        return (item.secret.withUnsafeBytes { Data($0) }, item.contentType)
    }

    private func sessionItemChanged(_ item: SecretObject, _ properties: [String]) {
        emit(Self.collectionInterface, "ItemChanged", on: SessionCollection.path, argument: item.path)
        emitPropertiesChanged(Self.itemInterface, on: item.path, properties)
    }
}
