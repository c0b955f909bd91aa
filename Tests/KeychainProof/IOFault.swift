import Security

/// One I/O fault the shim injects into the keychain folder's files, and the documented
/// status every call it fails must give.
public struct IOFault: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// The disk is full.
        case enospc
        /// The disk fails.
        case eio
        /// A write that stores half its bytes, then a full disk.
        case short
    }

    public let kind: Kind
    /// Whether syncs (fsync, fdatasync) fail rather than writes.
    public let onSyncs: Bool

    public init(kind: Kind, onSyncs: Bool) {
        self.kind = kind
        self.onSyncs = onSyncs
    }

    init?(kind: String, on: String) {
        guard let kind = Kind(rawValue: kind), on == "write" || on == "sync" else { return nil }
        self.init(kind: kind, onSyncs: on == "sync")
    }

    var arguments: [String] { [kind.rawValue, onSyncs ? "sync" : "write"] }

    /// SQLite reports a write that found the disk full as SQLITE_FULL, which the library
    /// maps to errSecDiskFull (-34); a failed write otherwise, and any failed sync, as
    /// SQLITE_IOERR, which it maps to errSecIO (-36).
    public var expectedStatus: OSStatus {
        !onSyncs && kind != .eio ? errSecDiskFull : errSecIO
    }

    public var description: String { "\(kind.rawValue) at a \(onSyncs ? "sync" : "write")" }

    /// Every fault the suite injects.
    public static let all: [IOFault] = [
        IOFault(kind: .enospc, onSyncs: false), IOFault(kind: .eio, onSyncs: false), IOFault(kind: .short, onSyncs: false),
        IOFault(kind: .eio, onSyncs: true), IOFault(kind: .enospc, onSyncs: true),
    ]
}
