import Foundation
import Security

/// Generated dictionaries through all four SecItem calls, checking that every status is one
/// Apple's API gives for that call and that a failed call leaves its result nil.
/// A crash or a hang shows as the run itself not finishing.
public struct FuzzRun {
    public enum Call: String, CaseIterable, Sendable {
        case add = "SecItemAdd", copyMatching = "SecItemCopyMatching", update = "SecItemUpdate", delete = "SecItemDelete"
    }

    /// What each call may answer, by Apple's rules for it. `errSecInteractionNotAllowed` is a locked item,
    /// and `errSecDecode` a damaged one; the fuzzer makes neither, so they count as wrong.
    public static let allowed: [Call: Set<OSStatus>] = {
        let parsing: Set<OSStatus> = [
            errSecSuccess, errSecParam, errSecNoSuchAttr, errSecNoSuchClass, errSecMissingEntitlement, errSecUnimplemented,
        ]
        return [
            .add: parsing.union([errSecDuplicateItem]),
            .copyMatching: parsing.union([errSecItemNotFound]),
            .update: parsing.union([errSecItemNotFound, errSecDuplicateItem]),
            .delete: parsing.union([errSecItemNotFound]),
        ]
    }()

    /// Counts by call and status.
    public private(set) var counts: [Call: [OSStatus: Int]] = [:]
    /// The first few cases that broke a rule, described without their values.
    public private(set) var violations: [String] = []
    public private(set) var cases = 0

    private var fuzzer: QueryFuzzer

    public init(seed: UInt64) {
        fuzzer = QueryFuzzer(seed: seed)
    }

    /// Runs `count` more cases against the keychain the current `KeychainEnvironment` names.
    public mutating func run(cases count: Int) {
        for _ in 0..<count {
            let call = Call.allCases[Int.random(in: 0..<4, using: &fuzzer.generator)]
            let purpose: QueryFuzzer.Purpose = switch call {
            case .add: .add
            case .copyMatching: .search
            case .update: .update
            case .delete: .delete
            }
            let query = dictionary(fuzzer.query(for: purpose))
            var result: CFTypeRef?
            // Half the calls pass no result pointer, which is legal.
            let wantsResult = Bool.random(using: &fuzzer.generator)
            let status: OSStatus
            switch call {
            case .add:
                status = wantsResult ? SecItemAdd(query, &result) : SecItemAdd(query, nil)
            case .copyMatching:
                status = wantsResult ? SecItemCopyMatching(query, &result) : SecItemCopyMatching(query, nil)
            case .update:
                status = SecItemUpdate(query, dictionary(fuzzer.query(for: .changes)))
            case .delete:
                status = SecItemDelete(query)
            }
            cases += 1
            counts[call, default: [:]][status, default: 0] += 1
            if !(Self.allowed[call]?.contains(status) ?? false) {
                record("\(call.rawValue) gave \(status), which Apple's API does not give for it")
            }
            if status != errSecSuccess && result != nil {
                record("\(call.rawValue) failed with \(status) but set its result")
            }
        }
    }

    private mutating func record(_ violation: String) {
        if violations.count < 20 { violations.append("case \(cases): \(violation)") }
    }

    /// Sometimes a dictionary with a key that is not a string, which Swift dictionaries
    /// cannot hold but CFDictionaries can.
    private mutating func dictionary(_ entries: [String: Any]) -> CFDictionary {
        let dictionary = NSMutableDictionary(dictionary: entries)
        if Int.random(in: 0..<50, using: &fuzzer.generator) == 0 {
            dictionary[NSNumber(value: 7)] = fuzzer.value()
        }
        return dictionary
    }

    /// A table of statuses by call.
    public var report: String {
        var lines = ["call                | status | count"]
        for call in Call.allCases {
            for (status, count) in (counts[call] ?? [:]).sorted(by: { $0.key > $1.key }) {
                lines.append("\(call.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)) | \(String(status).leftPadded(6)) | \(count)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - count)) + self
    }
}
