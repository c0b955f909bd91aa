/// Bounds on what a client may send, so that no call makes the provider hold unbounded
/// memory or write an unbounded item.
enum Limits {
    /// The largest secret stored or accepted: 1 MiB.
    static let secretBytes = 1 << 20
    /// Attributes of one item or one search.
    static let attributeCount = 64
    /// Bytes of one attribute name or value, and of a label.
    static let stringBytes = 4096
    /// Object paths in one Unlock, Lock or GetSecrets call.
    static let pathsPerCall = 4096
    /// Bytes of secrets in one GetSecrets reply: 4,096 paths of 1 MiB secrets would
    /// otherwise make a reply of 4 GiB, held in memory; and D-Bus carries no array over
    /// 64 MiB (the bus cuts off a sender of one), so this leaves room for the paths.
    static let secretBytesPerReply = 32 << 20
    /// Sessions open at once, over all clients, and for one client.
    static let sessions = 1024
    static let sessionsPerClient = 64
    /// Unlock prompts pending at once, over all clients, and for one client.
    static let prompts = 256
    static let promptsPerClient = 16
    /// The longest array a D-Bus message may carry (the specification's 64 MiB, sd-bus's
    /// BUS_ARRAY_MAX_SIZE). sd-bus builds and sends a longer one without complaint, and the
    /// bus then disconnects the sender: a reply of the Items of about 760,000 items would end
    /// the provider's connection, so such replies are refused first (``ReplyLimit``).
    static let busArrayBytes = 1 << 26
    /// The largest D-Bus message (the specification's 128 MiB, sd-bus's BUS_MESSAGE_SIZE_MAX);
    /// dbus-daemon's session bus allows up to 1,000,000,000 bytes (session.conf), so this one binds.
    static let busMessageBytes = 1 << 27
    /// Room kept in a reply for its header and values other than object paths (a collection's
    /// GetAll has its Label, of at most ``stringBytes``).
    static let replyHeaderRoom = 1 << 16
    /// Clients whose user the provider remembers; past it, it forgets them all and asks the
    /// bus again.
    static let knownClients = 4096
}
