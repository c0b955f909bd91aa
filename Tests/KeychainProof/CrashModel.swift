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

    var fields: [String] {
        switch self {
        case .add(let group, let account, let token): ["add", group, account, token]
        case .update(let group, let account, let token): ["update", group, account, token]
        case .delete(let group, let account): ["delete", group, account]
        case .updateAll(let group, let token): ["update-all", group, token]
        case .deleteAll(let group, let opening): ["delete-all", group, opening ? "opening" : "columns"]
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
        }
    }
}

/// What the crash writer's journal says the keychain holds: the items of each group by
/// account and token, and the one operation that began but was neither acknowledged nor
/// resolved (the writer was killed during it, or before it could journal the outcome).
///
/// Journal lines: `begin ID OPERATION...`, `ok ID`, `fail ID STATUS`, `resolved ID applied|absent`
/// (written by the verifier once it has seen which it was), `start PID`.
public struct CrashModel {
    public private(set) var groups: [String: [String: String]] = [:]
    public private(set) var pending: (id: String, operation: CrashOperation)?
    public private(set) var problems: [String] = []
    public private(set) var acknowledged = 0

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
            case "ok" where pending?.id == line[safe: 1]:
                pending?.operation.apply(to: &groups)
                pending = nil
                acknowledged += 1
            case "fail" where pending?.id == line[safe: 1]:
                // The writer only makes calls that should succeed; any status else is a defect.
                problems.append("\(pending!.operation.kind) \(line[1]) failed with \(line[safe: 2] ?? "?")")
                pending = nil
            case "resolved" where pending?.id == line[safe: 1]:
                if line[safe: 2] == "applied" { pending?.operation.apply(to: &groups) }
                pending = nil
            case "start":
                if let pending { problems.append("operation \(pending.id) was never resolved") }
            default:
                break
            }
        }
    }

    /// The state with the pending operation applied too.
    public var groupsIfPendingApplied: [String: [String: String]] {
        var groups = groups
        pending?.operation.apply(to: &groups)
        return groups
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
