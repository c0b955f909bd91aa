import Foundation
@testable import LocalAuthentication
import KeychainCore
import Security
import Testing

/// LocalAuthentication's names, raw values and answers that need no user: what code written
/// for Apple's framework relies on.
@Suite struct LocalAuthenticationAPITests {
    /// Apple's raw values (LAPublicDefines.h), so that stored or logged codes and C interop
    /// mean the same on Linux.
    @Test func rawValuesAreApples() {
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicy.deviceOwnerAuthentication.rawValue == 2)
        #expect(LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue == 3)
        #expect(LAPolicy.deviceOwnerAuthenticationWithCompanion.rawValue == 3)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch.rawValue == 4)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion.rawValue == 4)
        #expect(LAPolicy.deviceOwnerAuthenticationWithWristDetection.rawValue == 5)
        let codes: [(LAError.Code, Int)] = [
            (.authenticationFailed, -1), (.userCancel, -2), (.userFallback, -3), (.systemCancel, -4),
            (.passcodeNotSet, -5), (.biometryNotAvailable, -6), (.biometryNotEnrolled, -7), (.biometryLockout, -8),
            (.appCancel, -9), (.invalidContext, -10), (.watchNotAvailable, -11), (.companionNotAvailable, -11),
            (.biometryNotPaired, -12), (.biometryDisconnected, -13), (.invalidDimensions, -14), (.notInteractive, -1004),
        ]
        for (code, raw) in codes { #expect(code.rawValue == raw, "\(code)") }
        #expect(LABiometryType.none.rawValue == 0 && LABiometryType.touchID.rawValue == 1)
        #expect(LABiometryType.faceID.rawValue == 2 && LABiometryType.opticID.rawValue == 4)
        #expect(LACredentialType.applicationPassword.rawValue == 0 && LACredentialType.smartCardPIN.rawValue == -3)
        #expect(LAAccessControlOperation.useItem.rawValue == 1 && LAAccessControlOperation.useKeyKeyExchange.rawValue == 5)
        #expect(LATouchIDAuthenticationMaximumAllowableReuseDuration == 300)
        #expect(LAErrorDomain == "com.apple.LocalAuthentication")
    }

    /// Each way presence can fail has one LAError code: a wrong password, a cancel, no one to
    /// ask, and PAM missing (passcodeNotSet: no device password can be checked).
    @Test func presenceFailuresMapToLAErrorCodes() {
        #expect(LAError(PresenceFailure.authenticationFailed).code == .authenticationFailed)
        #expect(LAError(PresenceFailure.cancelled).code == .userCancel)
        #expect(LAError(PresenceFailure.notInteractive).code == .notInteractive)
        let unavailable = LAError(PresenceFailure.unavailable("libpam.so.0: cannot open shared object file"))
        #expect(unavailable.code == .passcodeNotSet)
        #expect((unavailable as NSError).userInfo["NSDebugDescription"] as? String == "libpam.so.0: cannot open shared object file")
    }

    /// Apple's error handling compiles and matches: `catch LAError.userCancel`, `as? LAError`,
    /// and `NSError` with LAErrorDomain and the code.
    @Test func errorsBridgeAndMatchAsOnApplePlatforms() {
        let error: any Error = LAError(.userCancel)
        var matched = false
        do { throw error } catch LAError.userCancel { matched = true } catch {}
        #expect(matched)
        #expect((error as? LAError)?.code == .userCancel)
        let bridged = error as NSError
        #expect(bridged.domain == LAErrorDomain && bridged.code == -2)
        #expect(!bridged.localizedDescription.isEmpty)
        // An NSError of the domain, as canEvaluatePolicy gives, matches by code too.
        #expect(LAError.Code.biometryNotAvailable ~= NSError(domain: LAErrorDomain, code: -6))
        #expect(!(LAError.Code.biometryNotAvailable ~= NSError(domain: "other", code: -6)))
    }

    /// Linux has no biometry, watch or companion: those policies answer as a Mac without them,
    /// without asking anyone.
    /// Valet's pattern: an `NSError` from an evaluation's completion made back into an
    /// `LAError` (`LAError(_nsError:)`), its code and description kept.
    @Test func anNSErrorOfTheDomainBecomesAnLAError() {
        let bridged = LAError(.userCancel, userInfo: ["why": "Ctrl-C"]) as NSError
        let back = LAError(_nsError: bridged)
        #expect(back.code == .userCancel)
        #expect(back.errorUserInfo["why"] as? String == "Ctrl-C")
        #expect(LAError(_nsError: NSError(domain: LAErrorDomain, code: -1004)).code == .notInteractive)
        // Never a trap: another domain, or a code the framework does not have.
        let foreign = LAError(_nsError: NSError(domain: "NSPOSIXErrorDomain", code: 13))
        #expect(foreign.code == .authenticationFailed)
        #expect(foreign.errorUserInfo["NSUnderlyingErrorDomain"] as? String == "NSPOSIXErrorDomain")
        #expect(LAError(_nsError: NSError(domain: LAErrorDomain, code: -77)).code == .authenticationFailed)
    }

    @Test func biometricPoliciesAreNotAvailable() async {
        let context = LAContext()
        #expect(context.biometryType == .none)
        #expect(context.evaluatedPolicyDomainState == nil)
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        #expect(error?.domain == LAErrorDomain && error?.code == LAError.biometryNotAvailable.rawValue)
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithWatch, error: &error))
        #expect(error?.code == LAError.watchNotAvailable.rawValue)
        await #expect(throws: LAError(.biometryNotAvailable)) {
            try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "unlock")
        }
    }

    /// The device-owner policy can be evaluated where PAM loads (this system has libpam).
    @Test func deviceOwnerPolicyCanBeEvaluatedWithPAM() {
        var error: NSError?
        #expect(UserPresence.isAvailable, "\(UserPresence.unavailableReason ?? "")")
        #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error == nil)
    }

    /// After invalidate(), every evaluation is invalidContext and the credential is gone.
    @Test func invalidatedContextRefusesEverything() async {
        let context = LAContext()
        #expect(context.setCredential(Data("app password".utf8), type: .applicationPassword))
        context.invalidate()
        var error: NSError?
        #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        #expect(error?.code == LAError.invalidContext.rawValue)
        await #expect(throws: LAError(.invalidContext)) {
            try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "unlock")
        }
        #expect(!context.isCredentialSet(.applicationPassword))
        #expect(!context.setCredential(Data("again".utf8), type: .applicationPassword))
    }

    /// interactionNotAllowed: an evaluation that would prompt fails at once with notInteractive.
    @Test func interactionNotAllowedFailsWithoutPrompting() async throws {
        let context = LAContext()
        context.interactionNotAllowed = true
        await #expect(throws: LAError(.notInteractive)) {
            try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "unlock")
        }
        let authentication = try #require((context as AnyObject) as? any AuthenticationContext)
        guard case .failure(let failure) = authentication.proveUserPresence(reason: nil, allowPrompt: true) else {
            Issue.record("presence proven without a prompt")
            return
        }
        #expect(failure == .notInteractive)
    }

    /// The reuse duration is Apple's: 0 to 300 seconds, other values clamped.
    @Test func reuseDurationIsClampedToApplesRange() {
        let context = LAContext()
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        context.touchIDAuthenticationAllowableReuseDuration = 1000
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 300)
        context.touchIDAuthenticationAllowableReuseDuration = -5
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        context.touchIDAuthenticationAllowableReuseDuration = .nan
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
    }

    /// The application password set on a context is what SecItem calls get from it, as
    /// SecretBytes; nil removes it; smart-card PINs are refused.
    @Test func applicationPasswordCredentialReachesTheKeychain() throws {
        let context = LAContext()
        let authentication = try #require((context as AnyObject) as? any AuthenticationContext)
        #expect(!context.isCredentialSet(.applicationPassword) && authentication.applicationPassword() == nil)
        #expect(context.setCredential(Data("app password".utf8), type: .applicationPassword))
        #expect(context.isCredentialSet(.applicationPassword))
        let expected = Array("app password".utf8)
        #expect(authentication.applicationPassword()?.withUnsafeBytes { Array($0) } == expected)
        #expect(context.setCredential(nil, type: .applicationPassword))
        #expect(!context.isCredentialSet(.applicationPassword) && authentication.applicationPassword() == nil)
        #expect(!context.setCredential(Data("1234".utf8), type: .smartCardPIN))
        #expect(!context.isCredentialSet(.smartCardPIN))
    }

    /// Code as SimpleKeychain and Valet write it against Apple's framework compiles unchanged:
    /// an LAContext subclass, the reply closure, the NSError pointer, the reuse duration, and
    /// the context in a SecItem query under kSecUseAuthenticationContext.
    @Test func appleStyleCallersCompile() async throws {
        final class AppContext: LAContext, @unchecked Sendable {}
        let context: LAContext = AppContext()
        context.localizedReason = "Access your password"
        context.localizedCancelTitle = "Cancel"
        context.localizedFallbackTitle = ""
        context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
        var error: NSError?
        if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            Issue.record("no biometry on Linux")
        }
        let replied: (Bool, Int?) = await withCheckedContinuation { continuation in
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock") { success, error in
                continuation.resume(returning: (success, (error as? LAError)?.code.rawValue))
            }
        }
        #expect(replied.0 == false && replied.1 == LAError.biometryNotAvailable.rawValue)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecUseAuthenticationContext as String: context,
        ]
        #expect(query[kSecUseAuthenticationContext as String] is LAContext)
    }
}
