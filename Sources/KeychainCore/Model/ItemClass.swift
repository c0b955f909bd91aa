import Foundation

/// The class of a keychain item, named by its four-character code (`kSecClass` values).
package enum ItemClass: String, Sendable, CaseIterable, Hashable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    /// A certificate paired with its private key. Identities have no stored form of their
    /// own: the `Security` layer forms them by joining certificate and key items.
    case identity = "idnt"

    /// The schema (attributes, primary key) of this class.
    package var schema: ItemSchema { ItemSchema.of(self) }

    /// The four class bytes that start a persistent reference.
    var referenceTag: Data { Data(utf8Of: rawValue) }

    /// A small integer stored in the `class` column; the column is not secret.
    var storageCode: Int {
        switch self {
        case .genericPassword: 1
        case .internetPassword: 2
        case .certificate: 3
        case .key: 4
        case .identity: 5
        }
    }
}
