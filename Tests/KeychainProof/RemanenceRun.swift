import Foundation
import Security
import TestSupport

/// The remanence run: changes a keychain in every way that supersedes a key, a password or
/// a secret, while other processes hold it open, and after each call checks every page
/// version of its files as an attacker would (``RemanenceChecks``); after each password set
/// or change, it also splices the old keybag into a copy and tries to read an item added
/// since (``OldKeybagAttack``).
///
/// A round creates a keychain with a password, fills it with items of every class A and C
/// accessibility, starts the holders, then makes the changes: those of `plan` (by default the
/// fixed order below, which covers each kind once), or at random (`randomSteps`), with more
/// items added between them.
public struct RemanenceRun {
    public enum Change: String, CaseIterable, Sendable {
        case createWithPassword = "create-with-password"
        case setPassword = "set-password"
        case changePassword = "change-password"
        case removePassword = "remove-password"
        case deleteItem = "delete-item"
        case updateSecret = "update-secret"
        case deleteClass = "delete-class"
    }

    /// Each kind once, in an order a new keychain with a password allows: the default plan.
    public static let fixedOrder: [Change] = [
        .createWithPassword, .changePassword, .deleteItem, .updateSecret, .removePassword, .setPassword, .deleteClass,
    ]

    /// The shortest way to each kind of change from a new keychain with a password.
    public static func plan(for change: Change) -> [Change] {
        switch change {
        case .createWithPassword: [.createWithPassword]
        case .setPassword: [.createWithPassword, .removePassword, .setPassword]
        default: [.createWithPassword, change]
        }
    }

    public var rounds = 1
    /// The changes of a round without random ones: the first must be the creation.
    public var plan = fixedOrder
    /// Checks only after the plan's last change, so that a run tests one kind alone.
    public var checkOnlyLast = false
    /// Random changes per round after the creation; 0 for the plan.
    public var randomSteps = 0
    /// Items added per class A and C accessibility at the start of a round and between changes.
    public var itemsPerClass = 2
    public var holders = 1
    public var seed: UInt64 = 1
    public let executable: URL
    public let dataHome: URL
    public static let accessGroup = "proof.remanence"

    public init(executable: URL, dataHome: URL) {
        self.executable = executable
        self.dataHome = dataHome
    }

    public struct Outcome: Sendable {
        public var problems: [String] = []
        /// Changes made and checked, by kind; and those where a check failed.
        public var changes: [String: Int] = [:]
        public var failed: [String: Int] = [:]
        public var attacks = 0
        public var pageVersions = 0
        public var keybagVersions = 0
        public var supersededBlobs = 0

        public var passed: Bool { problems.isEmpty }

        public var totals: String {
            let kinds = changes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "changes checked: \(kinds); \(pageVersions) page versions, \(keybagVersions) class A/C keybag row "
                + "versions and \(supersededBlobs) superseded blobs examined; \(attacks) old-keybag attacks"
        }
    }

    var folder: URL { dataHome.appendingPathComponent("keychains") }

    public func run(progress: (String) -> Void = { _ in }) throws -> Outcome {
        var outcome = Outcome()
        var generator = SeededGenerator(seed: seed)
        for round in 0..<rounds {
            var state = RoundState(name: "remanence\(round)")
            let environment = KeychainEnvironment(directory: folder, keychainName: state.name, accessGroups: [Self.accessGroup])
            try KeychainEnvironment.withValue(environment) {
                defer {
                    for var holder in state.holders { holder.kill() }
                    _ = SecKeychainLock(nil)
                    var keychain: SecKeychain?
                    _ = SecKeychainOpen(state.name, &keychain)
                    _ = SecKeychainDelete(keychain)
                }
                let count = randomSteps == 0 ? plan.count : randomSteps + 1
                for index in 0..<count {
                    if index > 0 { state.addItems(itemsPerClass, using: &generator, outcome: &outcome) }
                    if index == 1 { try startHolders(&state, outcome: &outcome) }
                    let change = index == 0 ? Change.createWithPassword
                        : randomSteps == 0 ? plan[index] : state.randomChange(using: &generator)
                    try make(change, checked: !checkOnlyLast || index == count - 1, state: &state,
                             generator: &generator, outcome: &outcome, progress: progress)
                }
            }
        }
        return outcome
    }

    func startHolders(_ state: inout RoundState, outcome: inout Outcome) throws {
        let account = "holder"
        let status = ProofItems.add(service: RemanenceHolder.service, account: account, token: "holder",
                                    extra: [kSecAttrAccessible as String: kSecAttrAccessibleAlways])
        if status != errSecSuccess { outcome.problems.append("\(state.name): the holder's item could not be added: \(status)") }
        for _ in 0..<holders {
            var holder = try WorkerProcess(executable, ["remanence-hold", state.name, account], dataHome: dataHome,
                                           accessGroups: Self.accessGroup)
            let line = holder.readLine() ?? "nothing"
            if line != "held 0" { outcome.problems.append("\(state.name): a holder did not open the keychain: \(line)") }
            state.holders.append(holder)
        }
    }

    func make(_ change: Change, checked: Bool, state: inout RoundState, generator: inout SeededGenerator,
              outcome: inout Outcome, progress: (String) -> Void) throws {
        let database = folder.appendingPathComponent(state.name + ".keychain-db")
        if [.deleteItem, .updateSecret].contains(change), state.items.isEmpty {
            outcome.problems.append("\(state.name) \(change.rawValue): no item to change (the adds failed)")
            return
        }
        let before = change == .createWithPassword ? KeychainSnapshot.none : try KeychainSnapshot(database: database)
        let oldPassword = state.password
        let status: OSStatus
        switch change {
        case .createWithPassword:
            let password = state.newPassword(using: &generator)
            let bytes = Array(password.utf8)
            var keychain: SecKeychain?
            status = SecKeychainCreate(state.name, UInt32(bytes.count), bytes, false, nil, &keychain)
            state.password = password
        case .setPassword, .changePassword, .removePassword:
            let new = change == .removePassword ? nil : state.newPassword(using: &generator)
            let old = Array((oldPassword ?? "").utf8), bytes = Array((new ?? "").utf8)
            status = SecKeychainChangePassword(nil, UInt32(old.count), old, UInt32(bytes.count), bytes)
            state.password = new
            if new == nil { state.items.removeAll { $0.accessibility == .passcode } }
        case .deleteItem:
            let item = state.items.remove(at: Int.random(in: 0..<state.items.count, using: &generator))
            status = SecItemDelete(ProofItems.query(service: item.service, account: item.account) as CFDictionary)
        case .updateSecret:
            let item = state.items[Int.random(in: 0..<state.items.count, using: &generator)]
            status = ProofItems.update(ProofItems.query(service: item.service, account: item.account),
                                       token: state.token(using: &generator))
        case .deleteClass:
            status = SecItemDelete([kSecClass as String: kSecClassGenericPassword] as CFDictionary)
            state.items.removeAll()
        }
        var problems: [String] = []
        if status != errSecSuccess { problems.append("the call gave \(status)") }
        guard checked else {
            outcome.problems += problems.map { "\(state.name) \(change.rawValue) (on the way): \($0)" }
            return
        }
        outcome.changes[change.rawValue, default: 0] += 1
        let after = try KeychainSnapshot(database: database)
        let attacker = try DeviceKeyAttacker(deviceKeyFile: folder.appendingPathComponent(state.name + ".keychain-key"))
        let findings = try RemanenceChecks.check(name: state.name, folder: folder, before: before, after: after, attacker: attacker)
        problems += findings.problems
        outcome.pageVersions += findings.pageVersions
        outcome.keybagVersions += findings.keybagVersions
        outcome.supersededBlobs += findings.supersededBlobs
        // Checks that found nothing to check would prove nothing.
        if findings.keybagVersions == 0 { problems.append("no class A/C keybag row was found in the files") }
        if [.deleteItem, .updateSecret, .deleteClass].contains(change), findings.supersededBlobs == 0 {
            problems.append("the call superseded no sealed blob")
        }
        if change == .setPassword || change == .changePassword {
            problems += try attack(before: before, oldPassword: oldPassword, state: &state, generator: &generator)
            outcome.attacks += 1
        }
        if !problems.isEmpty {
            outcome.failed[change.rawValue, default: 0] += 1
            outcome.problems += problems.map { "\(state.name) \(change.rawValue): \($0)" }
        }
        progress("\(state.name) \(change.rawValue): \(problems.isEmpty ? "ok" : problems.joined(separator: "; "))")
    }

    /// Adds an item after the change, then reads it through the old keybag spliced into a copy.
    func attack(before: KeychainSnapshot, oldPassword: String?, state: inout RoundState,
                generator: inout SeededGenerator) throws -> [String] {
        let account = "after-\(state.counter)"
        let token = state.token(using: &generator)
        let added = ProofItems.add(service: "remanence.after", account: account, token: token)
        guard added == errSecSuccess else { return ["the item after the change could not be added: \(added)"] }
        let attack = OldKeybagAttack(before: before, oldPassword: oldPassword)
        let result = try attack.run(
            name: state.name, folder: folder, workFolder: dataHome.appendingPathComponent("attack-\(state.counter)"),
            accessGroups: [Self.accessGroup], service: "remanence.after", account: account, secret: Data("S:\(token)".utf8))
        guard result.secretRevealed else { return [] }
        return ["(d) the keybag and password from before the change, spliced into a copy, unlocked it "
                + "(\(result.unlockStatus)) and opened an item added after the change"]
    }
}

/// What a round knows of its keychain.
struct RoundState {
    enum Kind: CaseIterable { case whenUnlocked, afterFirstUnlock, whenUnlockedThisDevice, afterFirstUnlockThisDevice, passcode }
    struct Item { let service: String; let account: String; let accessibility: Kind }

    let name: String
    var password: String?
    var items: [Item] = []
    var holders: [WorkerProcess] = []
    var counter = 0

    init(name: String) { self.name = name }

    mutating func token(using generator: inout SeededGenerator) -> String {
        counter += 1
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "\(counter)-" + String((0..<24).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
    }

    mutating func newPassword(using generator: inout SeededGenerator) -> String { "pw-" + token(using: &generator) }

    mutating func addItems(_ perClass: Int, using generator: inout SeededGenerator, outcome: inout RemanenceRun.Outcome) {
        for kind in Kind.allCases where kind != .passcode || password != nil {
            for _ in 0..<perClass {
                let value: CFString = switch kind {
                case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
                case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
                case .whenUnlockedThisDevice: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
                case .afterFirstUnlockThisDevice: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                case .passcode: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
                }
                let token = token(using: &generator)
                let item = Item(service: "remanence.items", account: "item-\(counter)", accessibility: kind)
                let status = ProofItems.add(service: item.service, account: item.account, token: token,
                                            extra: [kSecAttrAccessible as String: value])
                if status == errSecSuccess {
                    items.append(item)
                } else {
                    outcome.problems.append("\(name): adding a \(value) item gave \(status)")
                }
            }
        }
    }

    /// A change that applies now: the password ones as the keychain's state allows, the
    /// item ones while it has items.
    func randomChange(using generator: inout SeededGenerator) -> RemanenceRun.Change {
        var choices: [RemanenceRun.Change] = password == nil ? [.setPassword] : [.changePassword, .removePassword]
        if !items.isEmpty { choices += [.deleteItem, .deleteItem, .updateSecret, .updateSecret] }
        if Int.random(in: 0..<6, using: &generator) == 0 { choices.append(.deleteClass) }
        return choices[Int.random(in: 0..<choices.count, using: &generator)]
    }
}
