import Foundation

/// One keychain-level change the keychain crash writer makes: a password set, change or
/// removal on the default keychain, or the creation of a keychain with a password.
public enum CrashKeychainOperation: Equatable, Sendable {
    /// nil: no password (`-` in the journal).
    case password(old: String?, new: String?)
    case create(name: String, password: String)

    var fields: [String] {
        switch self {
        case .password(let old, let new): ["password", old ?? "-", new ?? "-"]
        case .create(let name, let password): ["create", name, password]
        }
    }

    init?(fields: ArraySlice<String>) {
        let fields = Array(fields)
        switch (fields.first, fields.count) {
        case ("password", 3): self = .password(old: fields[1] == "-" ? nil : fields[1], new: fields[2] == "-" ? nil : fields[2])
        case ("create", 3): self = .create(name: fields[1], password: fields[2])
        default: return nil
        }
    }

    /// `set-password`, `change-password`, `remove-password` or `create-keychain`.
    public var kind: String {
        switch self {
        case .password(nil, _): "set-password"
        case .password(_, nil): "remove-password"
        case .password: "change-password"
        case .create: "create-keychain"
        }
    }
}

/// What the keychain crash writer's journal says: the default keychain's password, the
/// keychains it created with theirs, and the one change that began but was neither
/// acknowledged nor resolved. Lines as ``CrashModel``'s: `begin ID OPERATION...`, `ok ID`,
/// `fail ID STATUS`, `resolved ID applied|absent`, `start PID`.
public struct CrashKeychainModel {
    public private(set) var password: String?
    public private(set) var created: [String: String] = [:]
    public private(set) var pending: (id: String, operation: CrashKeychainOperation)?
    public private(set) var problems: [String] = []
    public private(set) var acknowledged = 0

    public init(lines: [[String]]) {
        for line in lines {
            switch line.first {
            case "begin" where line.count >= 3:
                if let pending { problems.append("operation \(pending.id) was never resolved") }
                guard let operation = CrashKeychainOperation(fields: line[2...]) else {
                    problems.append("unreadable journal line \(line)")
                    continue
                }
                pending = (line[1], operation)
            case "ok" where pending?.id == line[safe: 1]:
                apply()
                acknowledged += 1
            case "fail" where pending?.id == line[safe: 1]:
                problems.append("\(pending!.operation.kind) \(line[1]) failed with \(line[safe: 2] ?? "?")")
                pending = nil
            case "resolved" where pending?.id == line[safe: 1]:
                if line[safe: 2] == "applied" { apply() } else { pending = nil }
            case "start":
                if let pending { problems.append("operation \(pending.id) was never resolved") }
            default:
                break
            }
        }
    }

    private mutating func apply() {
        switch pending?.operation {
        case .password(_, let new)?: password = new
        case .create(let name, let password)?: created[name] = password
        case nil: break
        }
        pending = nil
    }
}
