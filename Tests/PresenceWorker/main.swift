// Runs steps on one LAContext and prints each step's outcome on a line of its own, so that
// the presence tests can drive it as another user on a terminal (see PresenceTestUser).
//
//   presence-worker STEP...
//
// Steps, in order, on the current context:
//   evaluate:POLICY        evaluatePolicy (async), POLICY an LAPolicy case name
//   evaluate-reply:POLICY  evaluatePolicy with a reply closure
//   can:POLICY             canEvaluatePolicy
//   prove                  proveUserPresence(allowPrompt: true), what SecItem calls use
//   prove-silently         proveUserPresence(allowPrompt: false)
//   reuse:SECONDS          touchIDAuthenticationAllowableReuseDuration
//   reason:TEXT            localizedReason (the reason `prove` shows)
//   no-interaction         interactionNotAllowed = true
//   invalidate             invalidate()
//   new-context            a new LAContext for the steps that follow
//   ask-secret:EXPECTED    UserPresence.askSecret; prints whether the answer equals EXPECTED
//
// Steps on one generic password of the default keychain ($XDG_DATA_HOME), as SecItem callers
// make them:
//   add:FLAGS              SecItemAdd with kSecAttrAccessControl of FLAGS (names of
//                          SecAccessControlCreateFlags joined by ","), the context given
//   read                   SecItemCopyMatching for the secret, without a context
//   read-context           the same with kSecUseAuthenticationContext: the context
//   read-fail, read-skip   the same with kSecUseAuthenticationUI Fail or Skip
//   read-context-fail      the context, and kSecUseAuthenticationUI Fail
//   operation-prompt:TEXT  kSecUseOperationPrompt for the reads that follow
//   credential:PASSWORD    setCredential(PASSWORD, type: .applicationPassword) on the context
//   update-context:SECRET  SecItemUpdate of the secret with the context given
//   evaluate-ac:FLAGS      LAContext.evaluateAccessControl (async) for an access control of FLAGS
//   sign                   SecKeyCreateSignature with a P-256 key whose access control is
//                          .userPresence (made by the first sign step), the context given
// A read prints `STEP -> status N` and, on success, `matches` or `differs` against the secret
// last added or updated.
//
// Output: `STEP -> ok`, `STEP -> LAError CODE`, `STEP -> PresenceFailure NAME`,
// `STEP -> false LAError CODE`. The reason given to evaluations is "presence-worker STEP".
import Foundation
import KeychainCore
import LocalAuthentication
import Security

/// The policies by their Swift names.
let policies: [String: LAPolicy] = [
    "deviceOwnerAuthentication": .deviceOwnerAuthentication,
    "deviceOwnerAuthenticationWithBiometrics": .deviceOwnerAuthenticationWithBiometrics,
    "deviceOwnerAuthenticationWithWatch": .deviceOwnerAuthenticationWithWatch,
    "deviceOwnerAuthenticationWithBiometricsOrWatch": .deviceOwnerAuthenticationWithBiometricsOrWatch,
    "deviceOwnerAuthenticationWithWristDetection": .deviceOwnerAuthenticationWithWristDetection,
]

func report(_ step: String, _ outcome: String) {
    print("\(step) -> \(outcome)")
    fflush(nil)
}

func code(of error: (any Error)?) -> String {
    guard let error else { return "no error" }
    if let error = error as? LAError { return "LAError \(error.code.rawValue)" }
    return "other \(error)"
}

func failureName(_ failure: PresenceFailure) -> String {
    switch failure {
    case .authenticationFailed: "authenticationFailed"
    case .cancelled: "cancelled"
    case .notInteractive: "notInteractive"
    case .unavailable: "unavailable"
    }
}

var context = LAContext()
var status: Int32 = 0
/// The secret the item should hold, to tell a read's answer without printing it.
var expectedSecret = Data()
var operationPrompt: String?
let itemQuery: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                kSecAttrService as String: "presence-worker", kSecAttrAccount as String: "item"]
let flagNames: [String: SecAccessControlCreateFlags] = [
    "userPresence": .userPresence, "biometryAny": .biometryAny, "devicePasscode": .devicePasscode,
    "applicationPassword": .applicationPassword, "or": .or, "and": .and, "privateKeyUsage": .privateKeyUsage,
]

/// An access control of this machine's class with FLAGS (names joined by ",").
@MainActor func accessControl(_ names: String) -> SecAccessControl? {
    let flags = names.split(separator: ",").reduce(into: SecAccessControlCreateFlags()) { $0.formUnion(flagNames[String($1)] ?? []) }
    var error: Unmanaged<CFError>?
    return SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error)
}

/// A read of the item's secret with `extra` keys, reported as its status and whether it matches.
@MainActor func read(_ step: String, _ extra: [String: Any]) {
    var query = itemQuery.merging(extra) { $1 }
    query[kSecReturnData as String] = true
    if let operationPrompt { query[kSecUseOperationPrompt as String] = operationPrompt }
    var result: CFTypeRef?
    let found = SecItemCopyMatching(query as CFDictionary, &result)
    guard found == errSecSuccess else { return report(step, "status \(found)") }
    report(step, "status 0 " + ((result as? Data) == expectedSecret ? "matches" : "differs"))
}

var signingKey: SecKey?
for step in CommandLine.arguments.dropFirst() {
    let (name, value) = step.firstIndex(of: ":").map { (String(step[..<$0]), String(step[step.index(after: $0)...])) }
        ?? (step, "")
    switch name {
    case "evaluate", "evaluate-reply", "can":
        guard let policy = policies[value] else {
            report(step, "unknown policy")
            status = 2
            continue
        }
        if name == "can" {
            var error: NSError?
            let can = context.canEvaluatePolicy(policy, error: &error)
            report(step, can ? "ok" : "false \(error.map { $0.domain == LAErrorDomain ? "LAError \($0.code)" : "\($0)" } ?? "no error")")
        } else if name == "evaluate" {
            do {
                _ = try await context.evaluatePolicy(policy, localizedReason: "presence-worker \(step)")
                report(step, "ok")
            } catch {
                report(step, code(of: error))
            }
        } else {
            let outcome: (Bool, String) = await withCheckedContinuation { continuation in
                context.evaluatePolicy(policy, localizedReason: "presence-worker \(step)") { success, error in
                    continuation.resume(returning: (success, code(of: error)))
                }
            }
            report(step, outcome.0 ? "ok" : outcome.1)
        }
    case "prove", "prove-silently":
        // As SecItem calls find it: the context given with kSecUseAuthenticationContext.
        guard let authentication = (context as AnyObject) as? any AuthenticationContext else {
            report(step, "not an AuthenticationContext")
            status = 2
            continue
        }
        switch authentication.proveUserPresence(reason: nil, allowPrompt: name == "prove") {
        case .success: report(step, "ok")
        case .failure(let failure): report(step, "PresenceFailure \(failureName(failure))")
        }
    case "reuse":
        context.touchIDAuthenticationAllowableReuseDuration = TimeInterval(value) ?? 0
        report(step, "ok")
    case "reason":
        context.localizedReason = value
        report(step, "ok")
    case "no-interaction":
        context.interactionNotAllowed = true
        report(step, "ok")
    case "invalidate":
        context.invalidate()
        report(step, "ok")
    case "new-context":
        context = LAContext()
        report(step, "ok")
    case "ask-secret":
        switch UserPresence.askSecret(prompt: "Application password: ") {
        case .success(let secret):
            // Never the secret itself: whether it is the one expected.
            let expected = Array(value.utf8)
            report(step, secret.withUnsafeBytes { Array($0) == expected } ? "ok matches" : "ok differs")
        case .failure(let failure):
            report(step, "PresenceFailure \(failureName(failure))")
        }
    case "add":
        guard let control = accessControl(value) else {
            report(step, "no access control")
            status = 2
            continue
        }
        expectedSecret = Data("worker secret \(value)".utf8)
        let added = SecItemAdd(itemQuery.merging([kSecAttrAccessControl as String: control, kSecValueData as String: expectedSecret,
                                                  kSecUseAuthenticationContext as String: context]) { $1 } as CFDictionary, nil)
        report(step, "status \(added)")
    case "evaluate-ac":
        guard let control = accessControl(value) else {
            report(step, "no access control")
            status = 2
            continue
        }
        do {
            _ = try await context.evaluateAccessControl(control, operation: .useItem, localizedReason: "presence-worker \(step)")
            report(step, "ok")
        } catch {
            report(step, code(of: error))
        }
    case "read": read(step, [:])
    case "read-context": read(step, [kSecUseAuthenticationContext as String: context])
    case "read-fail": read(step, [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail])
    case "read-skip": read(step, [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip])
    case "read-context-fail":
        read(step, [kSecUseAuthenticationContext as String: context, kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail])
    case "operation-prompt":
        operationPrompt = value
        report(step, "ok")
    case "credential":
        report(step, context.setCredential(Data(value.utf8), type: .applicationPassword) ? "ok" : "refused")
    case "update-context":
        let secret = Data(value.utf8)
        let updated = SecItemUpdate(itemQuery.merging([kSecUseAuthenticationContext as String: context]) { $1 } as CFDictionary,
                                    [kSecValueData as String: secret] as CFDictionary)
        if updated == errSecSuccess { expectedSecret = secret }
        report(step, "status \(updated)")
    case "sign":
        if signingKey == nil {
            var error: Unmanaged<CFError>?
            guard let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                [.privateKeyUsage, .userPresence], &error),
                  let key = SecKeyCreateRandomKey([
                      kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                      kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                      kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true,
                                                      kSecAttrApplicationTag as String: Data("presence-worker".utf8),
                                                      kSecAttrAccessControl as String: control],
                  ] as CFDictionary, &error)
            else {
                report(step, "no key \(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)")
                status = 2
                continue
            }
            signingKey = key
        }
        // Found again as an app finds it, with the context: the key remembers it for its use.
        var found: CFTypeRef?
        let lookup = SecItemCopyMatching([
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("presence-worker".utf8),
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true,
            kSecUseAuthenticationContext as String: context,
        ] as CFDictionary, &found)
        guard lookup == errSecSuccess, let object = found, CFGetTypeID(object) == SecKeyGetTypeID() else {
            report(step, "lookup status \(lookup)")
            continue
        }
        let key = object as! SecKey // A CF type: checked by its type identifier above.
        var error: Unmanaged<CFError>?
        let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data("message".utf8) as CFData, &error)
        report(step, signature != nil ? "status 0" : "status \(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? 0)")
    default:
        report(step, "unknown step")
        status = 2
    }
}
// The keychains made here would otherwise leave their unlocks in this user's kernel keyring,
// whose quota (200 keys, 20,000 bytes) fills after a few test runs.
KeychainStore.forgetUnlocksOfKeychainsUsedByThisProcess()
exit(status)
