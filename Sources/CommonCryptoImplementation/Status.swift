import CommonCrypto

/// A status constant (Int, as Swift imports Apple's enum) as the calls return it.
func status(_ code: Int) -> CCCryptorStatus {
    CCCryptorStatus(code)
}
