/// The runs a kill or power cut ended while an operation was under way, by the operation's
/// kind, and whether the verifier then found it applied or absent: the bookkeeping the
/// outcomes of ``CrashRun``, ``CrashKeychainRun`` and ``PowerCutRun`` share.
public struct PendingTally {
    public private(set) var byKind: [String: (applied: Int, absent: Int)] = [:]

    public init() {}

    /// Counts a verifier's `applied` or `absent` for `kind`; any other result (`none`) is not counted.
    public mutating func record(_ kind: String, _ result: String) {
        switch result {
        case "applied": byKind[kind, default: (0, 0)].applied += 1
        case "absent": byKind[kind, default: (0, 0)].absent += 1
        default: break
        }
    }

    /// The counts for `kind`, or nil when nothing was ended during one.
    public subscript(kind: String) -> (applied: Int, absent: Int)? { byKind[kind] }

    /// How many runs were ended during `kind`.
    public func count(_ kind: String) -> Int { byKind[kind].map { $0.applied + $0.absent } ?? 0 }

    /// `KIND N (applied A, not applied B)` for each kind, or nil when there is none.
    public var summary: String? {
        guard !byKind.isEmpty else { return nil }
        return byKind.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.applied + $0.value.absent) (applied \($0.value.applied), not applied \($0.value.absent))" }
            .joined(separator: ", ")
    }
}
