import Foundation

/// `org.freedesktop.Secret.Collection` at `/org/freedesktop/secrets/collection/<name>`: a
/// keychain of the user's folder and the generic passwords of it the provider can see; the
/// default keychain is also reached as `/org/freedesktop/secrets/aliases/default`. Its Label
/// is the keychain's own (``KeychainItems/label()``), its Created and Modified those of the
/// keychain's files (``KeychainItems/times()``). Replies of paths too large for D-Bus are
/// refused (``ReplyLimit``).
extension SecretServiceProvider {
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    /// The properties CreateItem reads; others are ignored, as the API allows.
    static let labelProperty = "org.freedesktop.Secret.Item.Label"
    static let attributesProperty = "org.freedesktop.Secret.Item.Attributes"
    /// The property CreateCollection reads.
    static let collectionLabelProperty = "org.freedesktop.Secret.Collection.Label"

    /// Answers a call on the collection of `keychain`.
    ///
    /// Delete deletes the keychain and every secret in it, without a prompt, unless it is the
    /// default keychain, which is refused: every client's alias `default`, keychainctl and
    /// every SecItem call use it, and it would come back empty at its next use. No password is
    /// asked because it would protect nothing: any process of the user may remove the
    /// keychain's files (GNOME Keyring and `keychainctl delete-keychain` ask none either).
    func collectionMethod(_ member: String, _ keychain: KeychainItems, _ request: Request) throws(BusFailure) {
        let arguments = request.arguments
        switch member {
        case "SearchItems":
            let found = try keychain.search(try arguments.attributes()).map { keychain.object($0.reference).path }
            try replyLimit.check([found], matched: "SearchItems matched \(found.count) items in \(keychain.name)")
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPaths(found)
            }
        case "CreateItem":
            let (label, attributes) = try itemProperties(arguments)
            var secret = try TransferredSecret(reading: arguments)
            defer { secret.zero() }
            let replace = try arguments.boolean()
            var value = try secret.opened(with: try sessions.transport(of: secret.session, for: request.sender))
            defer { value.zero() }
            let item = try createItem(in: keychain, attributes, label: label, secret: value,
                                      contentType: secret.contentType, replace: replace)
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPath(item.path)
                try writer.objectPath(SecretObject.none)
            }
        case "Delete":
            // See the doc comment: the default keychain is refused, another deleted at once.
            guard !keychain.isDefault else {
                throw .notSupported("\(keychain.name) is the default keychain, which cannot be deleted here; make another "
                                    + "keychain the default first (SetAlias default), or use keychainctl delete-keychain")
            }
            try keychains.delete(keychain.name)
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPath(SecretObject.none) }
            collectionsChanged("CollectionDeleted", keychain.name)
        default:
            throw .notSupported("\(Self.collectionInterface) has no method \(member)")
        }
    }

    func collectionProperty(_ property: String, _ keychain: KeychainItems, _ writer: MessageWriter) throws(BusFailure) {
        switch property {
        case "Items":
            let items = try keychain.allReferences().map { keychain.object($0).path }
            try replyLimit.check([items], matched: "the collection \(keychain.name) holds \(items.count) items")
            try writer.objectPaths(items)
        case "Label": try writer.string(try keychain.label())
        case "Locked": try writer.boolean(try keychain.isLocked())
        case "Created": try writer.uint64(try keychain.times().created)
        case "Modified": try writer.uint64(try keychain.times().modified)
        default: throw .invalidArguments("no property \(property)")
        }
    }

    /// Sets the collection's Label, kept with the keychain; the others are read-only.
    func setCollectionProperty(_ property: String, _ keychain: KeychainItems, _ value: MessageReader) throws(BusFailure) {
        guard property == "Label" else { throw .invalidArguments("the property \(property) cannot be set") }
        let label = try value.string()
        guard label.utf8.count <= Limits.stringBytes else {
            throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
        }
        try keychain.setLabel(label)
        collectionChanged(keychain.name, ["Label"])
    }

    /// The label and attributes among CreateItem's properties (`a{sv}`); both may be absent.
    func itemProperties(_ arguments: MessageReader) throws(BusFailure) -> (String, ItemAttributes) {
        var label = ""
        var attributes = try ItemAttributes(checking: [:])
        try arguments.enter("a", "{sv}")
        var count = 0
        while try arguments.enterIfAny("e", "sv") {
            count += 1
            guard count <= Limits.attributeCount else { throw .invalidArguments("too many item properties") }
            let name = try arguments.string()
            let contents = try arguments.variantContents()
            switch (name, contents) {
            case (Self.labelProperty, "s"):
                try arguments.enter("v", "s")
                label = try arguments.string()
                try arguments.exit()
                guard label.utf8.count <= Limits.stringBytes else {
                    throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
                }
            case (Self.attributesProperty, "a{ss}"):
                try arguments.enter("v", "a{ss}")
                attributes = try arguments.attributes()
                try arguments.exit()
            case (Self.labelProperty, _), (Self.attributesProperty, _):
                throw .invalidArguments("\(name) takes a '\(name == Self.labelProperty ? "s" : "a{ss}")' value, not '\(contents)'")
            default:
                try arguments.skip()
            }
            try arguments.exit()
        }
        try arguments.exit()
        return (label, attributes)
    }

    /// Stores a new item, or with `replace` changes the one whose attributes are exactly
    /// `attributes`; the item's object.
    private func createItem(in keychain: KeychainItems, _ attributes: ItemAttributes, label: String, secret value: Data,
                            contentType: String, replace: Bool) throws(BusFailure) -> SecretObject
    {
        if replace, let existing = try keychain.search(attributes).first(where: { $0.attributes == attributes }) {
            try keychain.update(existing.reference, known: existing, attributes: attributes, label: label, secret: value,
                                contentType: contentType)
            let item = keychain.object(existing.reference)
            itemChanged(item, ["Label", "Attributes", "Modified"])
            return item
        }
        let item = keychain.object(try keychain.add(attributes, label: label, secret: value, contentType: contentType))
        let collection = SecretObject.collectionPath(keychain.name)
        emit(Self.collectionInterface, "ItemCreated", on: collection, argument: item.path)
        emitPropertiesChanged(Self.collectionInterface, on: collection, ["Items"])
        return item
    }

    /// Tells clients that `item` changed: its collection's ItemChanged, and the item's
    /// PropertiesChanged for `properties`.
    func itemChanged(_ item: SecretObject, _ properties: [String]) {
        guard case .item(let collection?, _) = item else { return }
        emit(Self.collectionInterface, "ItemChanged", on: SecretObject.collectionPath(collection), argument: item.path)
        emitPropertiesChanged(Self.itemInterface, on: item.path, properties)
    }

    /// Tells clients that the lock of the keychain `name` changed: the collection's Locked, then
    /// each of its items' Locked, which follow it, as GNOME Keyring announces them.
    func lockChanged(_ name: String) {
        collectionChanged(name, ["Locked"])
        guard let keychain = try? keychains.items(in: name), let references = try? keychain.allReferences() else { return }
        for reference in references {
            emitPropertiesChanged(Self.itemInterface, on: keychain.object(reference).path, ["Locked"])
        }
    }

    /// Tells clients that `properties` of the collection of keychain `name` changed: the
    /// service's CollectionChanged and the collection's PropertiesChanged.
    func collectionChanged(_ name: String, _ properties: [String]) {
        let path = SecretObject.collectionPath(name)
        emit(SecretObject.service.interface, "CollectionChanged", on: SecretObject.servicePath, argument: path)
        emitPropertiesChanged(Self.collectionInterface, on: path, properties)
    }

    /// Tells clients that the keychain `name` came or went: the service's `signal`
    /// (CollectionCreated, CollectionDeleted) and its PropertiesChanged for Collections.
    func collectionsChanged(_ signal: String, _ name: String) {
        emit(SecretObject.service.interface, signal, on: SecretObject.servicePath,
             argument: SecretObject.collectionPath(name))
        emitPropertiesChanged(SecretObject.service.interface, on: SecretObject.servicePath, ["Collections"])
    }
}
