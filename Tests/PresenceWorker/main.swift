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
    default:
        report(step, "unknown step")
        status = 2
    }
}
exit(status)
