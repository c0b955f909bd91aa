import Foundation
import Keychain

/// The cards, kept as the chapter keeps its one card: JSON text in one keychain item
/// through `KeychainItemWrapper` (identifier `com.ICF.keychain.securedData`, account
/// `secureDataIdentifer`). For several cards (the chapter's first exercise) the JSON is an
/// array, so adding or deleting a card is one write of the whole list, never half done.
struct CardStore {
    private let wrapper: KeychainItemWrapper

    init() throws(KeychainError) {
        wrapper = try KeychainItemWrapper(identifier: "com.ICF.keychain.securedData", accessGroup: nil)
    }

    /// The stored cards, oldest first.
    func cards() throws(KeychainError) -> [CreditCard] {
        let json = wrapper.object(forKey: .valueData) as? String ?? ""
        guard !json.isEmpty else { return [] }   // the chapter's "no data stored yet"
        do {
            return try JSONDecoder().decode([CreditCard].self, from: Data(json.utf8))
        } catch {
            throw KeychainError(.decode, reason: "the stored cards are not a JSON list of cards")
        }
    }

    func add(_ card: CreditCard) throws(KeychainError) {
        try save(cards() + [card])
    }

    /// Removes the card at a position of ``cards()``.
    func remove(at index: Int) throws(KeychainError) {
        var list = try cards()
        list.remove(at: index)
        try save(list)
    }

    /// Deletes the item and with it every card.
    func reset() throws(KeychainError) {
        try wrapper.resetKeychainItem()
    }

    private func save(_ list: [CreditCard]) throws(KeychainError) {
        let json: String
        do {
            json = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
        } catch {
            throw KeychainError(.param, reason: "the cards could not be encoded as JSON")
        }
        try wrapper.setObject("secureDataIdentifer", forKey: .account)
        try wrapper.setObject(Accessibility.whenUnlocked, forKey: .accessible)
        try wrapper.setObject(json, forKey: .valueData)
    }
}
