/// How many bytes of item paths one reply may carry: SearchItems' lists and a collection's
/// Items. (Collections is not bounded: each keychain costs far more than its path.) A reply
/// past what D-Bus carries (``Limits/busArrayBytes``, ``Limits/busMessageBytes``) would
/// make the bus disconnect the provider, so it is refused
/// before it is built, with `org.freedesktop.DBus.Error.LimitsExceeded` telling how many items
/// matched: the client hears why and can search by more attributes.
///
/// The user may set a lower bound with the environment variable
/// `KEYCHAIN_SECRET_SERVICE_MAX_REPLY_BYTES` (bytes, at least ``smallest``), for clients that
/// cannot take large replies.
struct ReplyLimit: Sendable {
    static let environmentVariable = "KEYCHAIN_SECRET_SERVICE_MAX_REPLY_BYTES"
    /// What D-Bus carries in one message, less room for the header and other values.
    static let largest = Limits.busMessageBytes - Limits.replyHeaderRoom
    /// The lowest setting: a few item paths.
    static let smallest = 1024

    /// The most bytes the path lists of one reply may take, as D-Bus encodes them.
    let bytes: Int

    /// The limit of `environment`'s ``environmentVariable``, or ``largest`` when it is unset;
    /// a value that is not a number from ``smallest`` to ``largest`` is refused.
    init(environment: [String: String]) throws(StartFailure) {
        guard let text = environment[Self.environmentVariable] else {
            bytes = Self.largest
            return
        }
        guard let value = Int(text), (Self.smallest...Self.largest).contains(value) else {
            throw StartFailure("\(Self.environmentVariable) must be a number of bytes from \(Self.smallest) to "
                               + "\(Self.largest), not '\(text.prefix(64))'")
        }
        bytes = value
    }

    init(bytes: Int) {
        self.bytes = bytes
    }

    /// The bytes `lists` take in a message body as consecutive `ao` values from an aligned
    /// offset, as D-Bus encodes them: each array a 4-byte length, each path (4-aligned) a
    /// 4-byte length, its bytes and a NUL. Also the length of the longest array's contents.
    static func encodedSize(of lists: [[String]]) -> (total: Int, longestArray: Int) {
        var position = 0
        var longestArray = 0
        for paths in lists {
            position = aligned(position) + 4
            let start = position
            for path in paths {
                position = aligned(position) + 4 + path.utf8.count + 1
            }
            longestArray = max(longestArray, position - start)
        }
        return (position, longestArray)
    }

    /// Refuses a reply of `lists` that would pass this limit or D-Bus's array limit.
    /// `matched` says what the paths are, for the message ("SearchItems matched 12 items").
    func check(_ lists: [[String]], matched: @autoclosure () -> String) throws(BusFailure) {
        let size = Self.encodedSize(of: lists)
        guard size.total > bytes || size.longestArray > Limits.busArrayBytes else { return }
        let limit = size.longestArray > Limits.busArrayBytes
            ? "more than the \(Limits.busArrayBytes) bytes a D-Bus array may take"
            : bytes == Self.largest
                ? "more than the \(bytes) bytes a D-Bus reply may take"
                : "more than the \(bytes) bytes \(Self.environmentVariable) allows"
        throw .limitsExceeded("\(matched()), whose paths make a reply of \(size.total) bytes, \(limit); "
                              + "search by more attributes to match fewer items")
    }

    private static func aligned(_ position: Int) -> Int { (position + 3) & ~3 }
}
