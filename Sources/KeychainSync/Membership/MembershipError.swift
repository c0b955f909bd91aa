/// Why this device cannot make a roster, key wrap or record it was asked to make: the caller's
/// mistake or a state the agent must handle, never input from elsewhere (that is SyncRejection).
package enum MembershipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The signing device is not a member of the roster it would extend.
    case signerNotMember
    /// The device to add is a member already.
    case alreadyMember
    /// The device to add was removed earlier: it must join with a new identity.
    case previouslyRemoved
    /// The device to remove is not a member.
    case notMember
    /// Removing the last member would leave no one to sign the next roster.
    case lastMember
    /// A removal vouching for a record that another device wrote.
    case vouchedForAnotherDevice
    /// The group secrets do not reach that epoch.
    case epochNotHeld(UInt64)
    /// A record's version names another device than its author.
    case authorNotVersionDevice
    /// An item id that is not 32 bytes.
    case badItemID
    /// A genesis hash that is not 32 bytes.
    case badGenesisHash
    /// A record's roster head that is not 32 bytes.
    case badRosterHead
    /// swift-crypto could not sign or seal.
    case cryptoFailure

    package var description: String {
        switch self {
        case .signerNotMember: "the signing device is not a member of the roster"
        case .alreadyMember: "the device is a member already"
        case .previouslyRemoved: "the device was removed from the group and must join with a new identity"
        case .notMember: "the device is not a member"
        case .lastMember: "the last member cannot be removed"
        case .vouchedForAnotherDevice: "a removal can vouch only for records of the device it removes"
        case .epochNotHeld(let epoch): "no group key held for epoch \(epoch)"
        case .authorNotVersionDevice: "the record's version names another device than its author"
        case .badItemID: "an item id must be 32 bytes"
        case .badGenesisHash: "a genesis hash must be 32 bytes"
        case .badRosterHead: "a roster head must be 32 bytes"
        case .cryptoFailure: "signing or sealing failed"
        }
    }
}
