import Foundation

/// `org.freedesktop.Secret.Collection` at `/org/freedesktop/secrets/collection/login`, also
/// reached as `/org/freedesktop/secrets/aliases/default`: every generic password the
/// provider can see. Its Label is the keychain's own (``KeychainItems/label()``).
extension SecretServiceProvider {
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    /// The properties CreateItem reads; others are ignored, as the API allows.
    static let labelProperty = "org.freedesktop.Secret.Item.Label"
    static let attributesProperty = "org.freedesktop.Secret.Item.Attributes"

    func collectionMethod(_ member: String, _ request: Request) throws(BusFailure) {
        let arguments = request.arguments
        switch member {
        case "SearchItems":
            let found = try keychain.search(try arguments.attributes())
            try reply(to: request) { (writer) throws(BusFailure) in try writer.objectPaths(found.map(\.object.path)) }
        case "CreateItem":
            let (label, attributes) = try itemProperties(arguments)
            var secret = try TransferredSecret(reading: arguments)
            defer { secret.zero() }
            let replace = try arguments.boolean()
            var value = try secret.opened(with: try sessions.transport(of: secret.session, for: request.sender))
            defer { value.zero() }
            let item = try createItem(attributes, label: label, secret: value, contentType: secret.contentType,
                                      replace: replace)
            try reply(to: request) { (writer) throws(BusFailure) in
                try writer.objectPath(item.path)
                try writer.objectPath(SecretObject.none)
            }
        case "Delete":
            throw .notSupported("the login collection cannot be deleted; delete its items one by one")
        default:
            throw .notSupported("\(Self.collectionInterface) has no method \(member)")
        }
    }

    func collectionProperty(_ property: String, _ writer: MessageWriter) throws(BusFailure) {
        switch property {
        case "Items": try writer.objectPaths(try keychain.search(try ItemAttributes(checking: [:])).map(\.object.path))
        case "Label": try writer.string(try keychain.label())
        case "Locked": try writer.boolean(try keychain.isLocked())
        // The keychain records no dates for itself.
        case "Created", "Modified": try writer.uint64(0)
        default: throw .invalidArguments("no property \(property)")
        }
    }

    /// Sets the collection's Label, kept with the keychain; the others are read-only.
    func setCollectionProperty(_ property: String, _ value: MessageReader) throws(BusFailure) {
        guard property == "Label" else { throw .invalidArguments("the property \(property) cannot be set") }
        let label = try value.string()
        guard label.utf8.count <= Limits.stringBytes else {
            throw .invalidArguments("the label is longer than \(Limits.stringBytes) bytes")
        }
        try keychain.setLabel(label)
        emit(SecretObject.service.interface, "CollectionChanged", on: SecretObject.servicePath,
             argument: SecretObject.collectionPath)
        emitPropertiesChanged(Self.collectionInterface, on: SecretObject.collectionPath, ["Label"])
    }

    /// The label and attributes among CreateItem's properties (`a{sv}`); both may be absent.
    private func itemProperties(_ arguments: MessageReader) throws(BusFailure) -> (String, ItemAttributes) {
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
    private func createItem(_ attributes: ItemAttributes, label: String, secret value: Data, contentType: String,
                            replace: Bool) throws(BusFailure) -> SecretObject
    {
        if replace, let existing = try keychain.search(attributes).first(where: { $0.attributes == attributes }) {
            try keychain.update(existing.reference, attributes: attributes, label: label, secret: value,
                                contentType: contentType)
            itemChanged(existing.object.path, ["Label", "Attributes", "Modified"])
            return existing.object
        }
        let item = SecretObject.item(reference: try keychain.add(attributes, label: label, secret: value,
                                                                  contentType: contentType))
        emit(Self.collectionInterface, "ItemCreated", on: SecretObject.collectionPath, argument: item.path)
        emitPropertiesChanged(Self.collectionInterface, on: SecretObject.collectionPath, ["Items"])
        return item
    }

    /// Tells clients that the item at `path` changed: the collection's ItemChanged, and the
    /// item's PropertiesChanged for `properties`.
    func itemChanged(_ path: String, _ properties: [String]) {
        emit(Self.collectionInterface, "ItemChanged", on: SecretObject.collectionPath, argument: path)
        emitPropertiesChanged(Self.itemInterface, on: path, properties)
    }

    /// Tells clients that the collection's lock changed: the service's CollectionChanged and
    /// the collection's PropertiesChanged for Locked.
    func lockChanged() {
        emit(SecretObject.service.interface, "CollectionChanged", on: SecretObject.servicePath,
             argument: SecretObject.collectionPath)
        emitPropertiesChanged(Self.collectionInterface, on: SecretObject.collectionPath, ["Locked"])
    }
}
