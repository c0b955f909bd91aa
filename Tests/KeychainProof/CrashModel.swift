/// One change the crash writer makes, as its journal records it.
public enum CrashOperation: Equatable, Sendable {
    case add(group: String, account: String, token: String)
    case update(group: String, account: String, token: String)
    case delete(group: String, account: String)
    /// One SecItemUpdate matching every item of the group.
    case updateAll(group: String, token: String)
    /// One SecItemDelete matching every item of the group; `opening` adds an attribute the
    /// store must decrypt to match, which takes the transaction path rather than one statement.
    case deleteAll(group: String, opening: Bool)
    /// Changes of the keychain itself (see ProofKeychain): its auto-lock interval; setting,
    /// changing or removing (nil) its password; a lock followed by an unlock with `password`;
    /// an import of the proof archive's items into `group`, replacing those it holds.
    case settings(lockInterval: UInt32?)
    case password(old: String?, new: String?)
    case relock(password: String?)
    case importArchive(group: String)

    var fields: [String] {
        switch self {
        case .add(let group, let account, let token): ["add", group, account, token]
        case .update(let group, let account, let token): ["update", group, account, token]
        case .delete(let group, let account): ["delete", group, account]
        case .updateAll(let group, let token): ["update-all", group, token]
        case .deleteAll(let group, let opening): ["delete-all", group, opening ? "opening" : "columns"]
        case .settings(let interval): ["settings", interval.map(String.init) ?? "never"]
        case .password(let old, let new): ["password", old ?? "-", new ?? "-"]
        case .relock(let password): ["relock", password ?? "-"]
        case .importArchive(let group): ["import", group]
        }
    }

    init?(fields: ArraySlice<String>) {
        let fields = Array(fields)
        switch (fields.first, fields.count) {
        case ("add", 4): self = .add(group: fields[1], account: fields[2], token: fields[3])
        case ("update", 4): self = .update(group: fields[1], account: fields[2], token: fields[3])
        case ("delete", 3): self = .delete(group: fields[1], account: fields[2])
        case ("update-all", 3): self = .updateAll(group: fields[1], token: fields[2])
        case ("delete-all", 3): self = .deleteAll(group: fields[1], opening: fields[2] == "opening")
        case ("settings", 2): self = .settings(lockInterval: UInt32(fields[1]))
        case ("password", 3): self = .password(old: fields[1] == "-" ? nil : fields[1], new: fields[2] == "-" ? nil : fields[2])
        case ("relock", 2): self = .relock(password: fields[1] == "-" ? nil : fields[1])
        case ("import", 2): self = .importArchive(group: fields[1])
        default: return nil
        }
    }

    public var kind: String { fields[0] }

    func apply(to groups: inout [String: [String: String]]) {
        switch self {
        case .add(let group, let account, let token), .update(let group, let account, let token):
            groups[group, default: [:]][account] = token
        case .delete(let group, let account):
            groups[group]?[account] = nil
        case .updateAll(let group, let token):
            for account in groups[group, default: [:]].keys { groups[group]?[account] = token }
        case .deleteAll(let group, _):
            groups[group] = [:]
        case .importArchive(let group):
            for (account, token) in ProofArchive.items { groups[group, default: [:]][account] = token }
        case .settings, .password, .relock:
            break
        }
    }

    func apply(to keychain: inout ProofKeychainState) {
        switch self {
        case .settings(let interval): keychain.lockInterval = interval
        case .password(_, let new): keychain.password = new
        default: break
        }
    }
}

/// What the crash writer's journal says the keychain holds: the items of each group by
/// account and token, and the one operation that began but was neither acknowledged nor
/// resolved (the writer was killed during it, or before it could journal the outcome).
///
/// Journal lines: `begin ID OPERATION...`, `ok ID`, `fail ID STATUS`, `resolved ID applied|absent`
/// (written by the verifier once it has seen which it was), `start PID`, and `fault ID STATUS`
/// for a call that failed during an injected I/O fault: whole or not at all, but which of
/// the two is unknown (``uncertain``). Calls made at once on several threads are journaled
/// `concurrent ID OPERATION...` before and `ok ID` after; one never acknowledged is uncertain.
public struct CrashModel {
    public private(set) var groups: [String: [String: String]] = [:]
    public private(set) var pending: (id: String, operation: CrashOperation)?
    public private(set) var problems: [String] = []
    public private(set) var acknowledged = 0
    /// The keychain's password and settings as the acknowledged changes left them.
    public private(set) var keychain = ProofKeychainState()
    /// Calls that failed during an injected I/O fault, with the status each gave.
    public private(set) var uncertain: [(operation: CrashOperation, status: String)] = []
    /// Calls begun on other threads and not yet acknowledged, by id.
    private var concurrent: [String: CrashOperation] = [:]

    public init(lines: [[String]]) {
        for line in lines {
            guard let kind = line.first else { continue }
            switch kind {
            case "begin" where line.count >= 3:
                if let pending { problems.append("operation \(pending.id) was never resolved") }
                guard let operation = CrashOperation(fields: line[2...]) else {
                    problems.append("unreadable journal line \(line)")
                    continue
                }
                pending = (line[1], operation)
            case "concurrent" where line.count >= 3:
                guard let operation = CrashOperation(fields: line[2...]) else {
                    problems.append("unreadable journal line \(line)")
                    continue
                }
                concurrent[line[1]] = operation
            case "ok" where line.count == 2 && concurrent[line[1]] != nil:
                concurrent.removeValue(forKey: line[1])?.apply(to: &groups)
                acknowledged += 1
            case "ok" where pending?.id == line[safe: 1]:
                pending?.operation.apply(to: &groups)
                pending?.operation.apply(to: &keychain)
                pending = nil
                acknowledged += 1
            case "fail" where pending?.id == line[safe: 1]:
                // The writer only makes calls that should succeed; any status else is a defect.
                problems.append("\(pending!.operation.kind) \(line[1]) failed with \(line[safe: 2] ?? "?")")
                pending = nil
            case "resolved" where pending?.id == line[safe: 1]:
                if line[safe: 2] == "applied" {
                    pending?.operation.apply(to: &groups)
                    pending?.operation.apply(to: &keychain)
                }
                pending = nil
            case "fault" where pending?.id == line[safe: 1]:
                if let pending { uncertain.append((pending.operation, line[safe: 2] ?? "?")) }
                pending = nil
            case "start":
                if let pending { problems.append("operation \(pending.id) was never resolved") }
            default:
                break
            }
        }
        for (_, operation) in concurrent.sorted(by: { $0.key < $1.key }) {
            uncertain.append((operation, "unacknowledged"))
        }
    }

    /// The state with the pending operation applied too.
    public var groupsIfPendingApplied: [String: [String: String]] {
        var groups = groups
        pending?.operation.apply(to: &groups)
        return groups
    }

    /// The keychain's password and settings with the pending operation applied too.
    public var keychainIfPendingApplied: ProofKeychainState {
        var keychain = keychain
        pending?.operation.apply(to: &keychain)
        return keychain
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
