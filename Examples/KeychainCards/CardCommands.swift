import Keychain

/// What the user can do once unlocked: the cards, and a reset that wipes everything.
struct CardCommands {
    let store: CardStore
    let lock: PINLock
    let console: Console

    static let help = "Commands: add, list, show <number>, delete <number>, reset, help, quit"

    /// Reads commands until `quit`, a reset, or the end of the input.
    func run() throws(KeychainError) {
        console.say(Self.help)
        while let line = console.ask("> ") {
            let words = line.split(separator: " ").map(String.init)
            switch (words.first?.lowercased() ?? "", words.count) {
            case ("", _): continue
            case ("add", 1): try add()
            case ("list", 1): try list()
            case ("show", 2): try withCard(words[1]) { card, _ in show(card) }
            case ("delete", 2): try withCard(words[1]) { _, index throws(KeychainError) in try delete(at: index) }
            case ("reset", 1): if try reset() { return }
            case ("help", _): console.say(Self.help)
            case ("quit", 1), ("exit", 1): return
            default: console.say("Unknown command. \(Self.help)")
            }
        }
    }

    private func add() throws(KeychainError) {
        guard let card = CardInput(console: console).read() else { return }
        try store.add(card)
        console.say("Card \(card.maskedNumber) of \(card.name) saved.")
    }

    private func list() throws(KeychainError) {
        let cards = try store.cards()
        guard !cards.isEmpty else {
            console.say("No cards yet. Type add to store one.")
            return
        }
        for (index, card) in cards.enumerated() {
            console.say("\(index + 1). \(card.name)  \(card.maskedNumber)  expires \(card.expirationDate)")
        }
    }

    private func show(_ card: CreditCard) {
        console.say("Name:            \(card.name)")
        console.say("Number:          \(card.number)")
        console.say("Expiration date: \(card.expirationDate)")
        console.say("CV2 code:        \(card.cv2Code)")
    }

    private func delete(at index: Int) throws(KeychainError) {
        try store.remove(at: index)
        console.say("Card \(index + 1) deleted.")
    }

    /// Wipes the PIN and every card once the user confirms; true when it did.
    private func reset() throws(KeychainError) -> Bool {
        guard console.ask("Erase the PIN and all cards? Type yes to confirm: ")?.lowercased() == "yes" else {
            console.say("Nothing erased.")
            return false
        }
        try store.reset()
        try lock.reset()
        console.say("PIN and cards erased. The next launch asks for a new PIN.")
        return true
    }

    /// Runs `body` with the card that a 1-based number names, or says there is none.
    private func withCard(_ number: String, _ body: (CreditCard, Int) throws(KeychainError) -> Void) throws(KeychainError) {
        let cards = try store.cards()
        guard let position = Int(number), cards.indices.contains(position - 1) else {
            console.say("There is no card \(number). Type list to see the cards.")
            return
        }
        try body(cards[position - 1], position - 1)
    }
}
