/// Asks for a new card's fields, checking each so that typos are caught before they are stored.
struct CardInput {
    let console: Console

    /// The card the user typed; nil when the input ended before it was complete.
    func read() -> CreditCard? {
        guard let number = ask("Card number: ", secret: false, valid: Self.isCardNumber,
                               hint: "12 to 19 digits; spaces are allowed"),
              let expiration = ask("Expiration date (MM/YY): ", secret: false, valid: Self.isExpirationDate,
                                   hint: "two digits for the month, a slash, two for the year"),
              let cv2 = ask("CV2 code: ", secret: true, valid: Self.isCV2Code, hint: "3 or 4 digits"),
              let name = ask("Name on card: ", secret: false, valid: { !$0.isEmpty }, hint: "the name may not be empty")
        else { return nil }
        return CreditCard(number: number, expirationDate: expiration, cv2Code: cv2, name: name)
    }

    /// Asks until the answer is valid or the input ends.
    private func ask(_ prompt: String, secret: Bool, valid: (String) -> Bool, hint: String) -> String? {
        while let answer = secret ? console.askSecret(prompt) : console.ask(prompt) {
            if valid(answer) { return answer }
            console.say("That does not look right: \(hint).")
        }
        return nil
    }

    static func isCardNumber(_ text: String) -> Bool {
        let digits = text.filter { $0 != " " }
        return (12...19).contains(digits.count) && digits.allSatisfy(\.isASCIIDigit)
    }

    static func isExpirationDate(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
              let month = Int(parts[0]) else { return false }
        return (1...12).contains(month)
    }

    static func isCV2Code(_ text: String) -> Bool {
        (3...4).contains(text.count) && text.allSatisfy(\.isASCIIDigit)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
