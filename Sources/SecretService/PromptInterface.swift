import CSDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `org.freedesktop.Secret.Prompt` at `/org/freedesktop/secrets/prompt/<n>`: the prompt an
/// Unlock of the locked keychain returns. Prompt asks for the keychain's password on a thread
/// of its own (pinentry or systemd-ask-password, see ``PasswordAsker``), so the bus keeps
/// serving every client meanwhile; Completed tells the outcome.
extension SecretServiceProvider {
    static let promptInterface = "org.freedesktop.Secret.Prompt"

    func promptMethod(_ member: String, _ number: UInt64, _ request: Request) throws(BusFailure) {
        let prompt = try prompts.prompt(number, of: request.sender)
        switch member {
        case "Prompt":
            _ = try request.arguments.string()
            guard !prompt.shown else { throw .failed("this prompt was shown already; wait for its Completed signal") }
            // Unlocked meanwhile (keychainctl unlock-keychain, another prompt): nothing to ask.
            if try !keychain.isLocked() {
                try reply(to: request) { _ throws(BusFailure) in }
                complete(number, .unlocked)
                return
            }
            guard let asker = PasswordAsker.available() else {
                // The error first, so that a client reports it rather than a bare dismissal.
                try replyFailure(to: request, .noPrompter)
                complete(number, .dismissed)
                return
            }
            prompts.markShown(number)
            try reply(to: request) { _ throws(BusFailure) in }
            let keychain = keychain
            let completions = completions
            let dismissal = prompt.dismissal
            Thread.detachNewThread {
                let outcome = asker.ask(.unlocking(keychain: keychain.keychainName), dismissal: dismissal) { password in
                    keychain.unlock(password: password)
                }
                completions.post(.init(prompt: number, outcome: outcome))
            }
        case "Dismiss":
            prompt.dismissal.dismiss()
            try reply(to: request) { _ throws(BusFailure) in }
            // A prompt that is asking completes when its program has stopped.
            if !prompt.shown { complete(number, .dismissed) }
        default:
            throw .notSupported("\(Self.promptInterface) has no method \(member)")
        }
    }

    /// Emits the Completed signal of the prompt `number` and forgets the prompt: dismissed,
    /// or not with the objects its Unlock named, now unlocked.
    func complete(_ number: UInt64, _ outcome: PromptOutcome) {
        guard let prompt = prompts.remove(number) else { return }
        if case .failed(let reason) = outcome { Self.report("the unlock prompt failed: \(reason)") }
        let unlocked = outcome == .unlocked
        var signal: OpaquePointer?
        let path = SecretObject.prompt(number: number).path
        guard sd_bus_message_new_signal(bus, &signal, path, Self.promptInterface, "Completed") >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        let writer = MessageWriter(message: signal)
        do throws(BusFailure) {
            try writer.boolean(!unlocked)
            try writer.open("v", "ao")
            try writer.objectPaths(unlocked ? prompt.objects : [])
            try writer.close()
        } catch {
            return
        }
        _ = sd_bus_send(bus, signal, nil)
        if unlocked { lockChanged() }
    }

    /// Completes the prompts whose asking ended; on the bus thread, when the loop is woken.
    func completeAskedPrompts() {
        for completion in completions.take() { complete(completion.prompt, completion.outcome) }
    }

    /// Writes one line to the provider's standard error: what a user reading its log needs,
    /// never a secret.
    static func report(_ message: String) {
        let line = Array("keychain-secret-service: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
