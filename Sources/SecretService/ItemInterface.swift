import Foundation

/// `org.freedesktop.Secret.Item` at `/org/freedesktop/secrets/collection/<name>/<reference>`:
/// a generic password of the keychain `name`.
extension SecretServiceProvider {
    func itemMethod(_ member: String, _ keychain: KeychainItems, _ reference: Data, _ request: Request) throws(BusFailure) {
        let path = keychain.object(reference).path
        switch member {
        case "Delete":
            guard try keychain.delete(reference) else { throw .noSuchObject(path) }
            let collection = SecretObject.collectionPath(keychain.name)
            emit(Self.collectionInterface, "ItemDeleted", on: collection, argument: path)
            emitPropertiesChanged(Self.collectionInterface, on: collection, ["Items"])
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPath(SecretObject.none) }
        case "GetSecret":
            let session = try request.arguments.objectPath()
            let transport = try sessions.transport(of: session, for: request.sender)
            guard case (var secret, let contentType)? = try keychain.secret(of: reference) else { throw .noSuchObject(path) }
            defer { secret.zero() }
            try reply(to: request, sensitive: true) { (writer) throws(BusFailure) in
                try TransferredSecret.write(secret, contentType: contentType, session: session, transport: transport,
                                            to: writer)
            }
        case "SetSecret":
            var secret = try TransferredSecret(reading: request.arguments)
            defer { secret.zero() }
            var value = try secret.opened(with: try sessions.transport(of: secret.session, for: request.sender))
            defer { value.zero() }
            try keychain.update(reference, secret: value, contentType: secret.contentType)
            itemChanged(keychain.object(reference), ["Modified"])
            try reply(to: request) { _ throws(BusFailure) in }
        default:
            throw .notSupported("org.freedesktop.Secret.Item has no method \(member)")
        }
    }

    func itemProperty(_ property: String, _ keychain: KeychainItems, _ reference: Data, _ writer: MessageWriter)
        throws(BusFailure)
    {
        // A locked keychain cannot tell whether the item is there: its items are all locked,
        // and show what searches found them by (``LockedMatches``), so that a listing of
        // locked items (GetAll of each) succeeds; their secrets are IsLocked.
        if try keychain.isLocked() {
            switch property {
            case "Locked": return try writer.boolean(true)
            case "Attributes":
                return try writer.attributes(try ItemAttributes(checking: lockedMatches.known(keychain.object(reference).path)))
            case "Label": return try writer.string("")
            case "Created", "Modified": return try writer.uint64(0)
            default: throw .invalidArguments("no property \(property)")
            }
        }
        guard let item = try keychain.item(reference) else { throw .noSuchObject(keychain.object(reference).path) }
        switch property {
        case "Locked": try writer.boolean(false)
        case "Attributes": try writer.attributes(item.attributes)
        case "Label": try writer.string(item.label)
        case "Created": try writer.uint64(Self.seconds(item.created))
        case "Modified": try writer.uint64(Self.seconds(item.modified))
        default: throw .invalidArguments("no property \(property)")
        }
    }

    func setItemProperty(_ property: String, _ keychain: KeychainItems, _ reference: Data, _ value: MessageReader)
        throws(BusFailure)
    {
        switch property {
        case "Label":
            let label = try value.string()
            guard label.utf8.count <= Limits.stringBytes else {
                throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
            }
            try keychain.update(reference, label: label)
        case "Attributes":
            try keychain.update(reference, attributes: try value.attributes())
        default:
            throw .invalidArguments("the property \(property) cannot be set")
        }
        itemChanged(keychain.object(reference), [property, "Modified"])
    }

    /// Seconds since 1970, as the API's `t` dates are; 0 for none.
    private static func seconds(_ date: Date?) -> UInt64 {
        guard let date, date.timeIntervalSince1970 > 0 else { return 0 }
        return UInt64(date.timeIntervalSince1970)
    }
}
