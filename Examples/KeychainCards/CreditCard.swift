/// One credit card: the four fields of the book chapter's sample app.
struct CreditCard: Codable, Equatable {
    var number: String
    var expirationDate: String
    var cv2Code: String
    var name: String

    /// The number with all but the last four digits hidden, for lists.
    var maskedNumber: String {
        let digits = number.filter(\.isNumber)
        return "•••• " + String(digits.suffix(4))
    }
}
