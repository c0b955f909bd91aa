/// What an access control is evaluated for (`evaluateAccessControl`), with Apple's raw values.
public enum LAAccessControlOperation: Int, Sendable, Hashable {
    /// Creating an item.
    case createItem = 0
    /// Reading or using an item.
    case useItem = 1
    /// Creating a key with a restriction.
    case createKeyRestriction = 2
    /// Signing with a key.
    case useKeySign = 3
    /// Decrypting with a key.
    case useKeyDecrypt = 4
    /// A key exchange with a key.
    case useKeyKeyExchange = 5
}
