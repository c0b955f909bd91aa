/// The kinds of message sync encodes. Each signed or sealed kind starts with its own four-byte
/// magic and a format byte, so a signature made for one kind can never pass as another's, and a
/// reader tells an unknown format from damage.
package enum SyncMessageKind: String, Sendable, Equatable {
    case record = "record"
    case roster = "roster"
    case keyWrap = "key wrap"
    case joinRequest = "join request"
    case devicePublicIdentity = "device public identity"
    case deviceIdentity = "device identity"
    case groupSecrets = "group secrets"
    case version = "record version"

    /// The format every encoder writes and every decoder accepts.
    static let currentFormat: UInt8 = 1

    /// The first four bytes of an encoded message of this kind.
    var magic: [UInt8] {
        switch self {
        case .record: Array("KSRC".utf8)
        case .roster: Array("KSRS".utf8)
        case .keyWrap: Array("KSKW".utf8)
        case .joinRequest: Array("KSJR".utf8)
        case .devicePublicIdentity: Array("KSDP".utf8)
        case .deviceIdentity: Array("KSDI".utf8)
        case .groupSecrets: Array("KSGS".utf8)
        case .version: []  // a bare 32-byte value: see RecordVersion
        }
    }
}
