/// The item class and class attributes that name a ``Keychain``'s items; the key (account)
/// completes an item's identity.
enum ItemLocation: Sendable, Hashable {
    case genericPassword(service: String)
    case internetPassword(InternetPasswordLocation)
}

/// The attributes that, with the account, identify an internet password.
struct InternetPasswordLocation: Sendable, Hashable {
    var server: String
    var `protocol`: InternetProtocol
    var authenticationType: AuthenticationType
    var port: Int
    var path: String
}
