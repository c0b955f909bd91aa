import Keychain

/// The PIN screen of every launch: on the first, choose a PIN (typed twice); after that,
/// enter it, with a few tries.
struct Unlock {
    let lock: PINLock
    let console: Console

    static let tries = 3

    enum Outcome: Equatable {
        case unlocked
        /// The program should stop, for the reason given.
        case refused(String)
    }

    func run() throws(KeychainError) -> Outcome {
        try lock.isSet ? enterPIN() : choosePIN()
    }

    private func choosePIN() throws(KeychainError) -> Outcome {
        console.say("Welcome. Choose a PIN to protect your cards.")
        for _ in 1...Self.tries {
            guard let pin = console.askSecret("New PIN (4 to 8 digits): ") else { return .refused("No PIN was chosen.") }
            guard PINLock.isWellFormed(pin) else {
                console.say("A PIN is 4 to 8 digits.")
                continue
            }
            guard let repeated = console.askSecret("Repeat the PIN: ") else { return .refused("No PIN was chosen.") }
            guard repeated == pin else {
                console.say("The two PINs differ.")
                continue
            }
            try lock.set(pin)
            console.say("PIN saved.")
            return .unlocked
        }
        return .refused("No PIN was chosen: the PINs did not match.")
    }

    private func enterPIN() throws(KeychainError) -> Outcome {
        for attempt in 1...Self.tries {
            guard let pin = console.askSecret("PIN: ") else { return .refused("No PIN was entered.") }
            if lock.accepts(pin) { return .unlocked }
            let left = Self.tries - attempt
            if left > 0 { console.say("Wrong PIN. \(left) \(left == 1 ? "try" : "tries") left.") }
        }
        return .refused("Wrong PIN \(Self.tries) times. Exiting.")
    }
}
