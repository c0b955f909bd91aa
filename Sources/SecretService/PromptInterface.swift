import CSDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `org.freedesktop.Secret.Prompt` at `/org/freedesktop/secrets/prompt/<n>`: the prompt an
/// Unlock of locked collections or a CreateCollection returns. Prompt asks on a thread of its
/// own (pinentry or systemd-ask-password, see ``PasswordAsker``), so the bus keeps serving
/// every client meanwhile; Completed tells the outcome: for Unlock the objects unlocked
/// (`ao`), for CreateCollection the new collection (`o`).
extension SecretServiceProvider {
    static let promptInterface = "org.freedesktop.Secret.Prompt"

    func promptMethod(_ member: String, _ number: UInt64, _ request: Request) throws(BusFailure) {
        let prompt = try prompts.prompt(number, of: request.sender)
        switch member {
        case "Prompt":
            _ = try request.arguments.string()
            guard !prompt.shown else { throw .failed("this prompt was shown already; wait for its Completed signal") }
            switch prompt.purpose {
            case .unlock(let names, _):
                // Unlocked meanwhile (keychainctl unlock-keychain, another prompt): nothing to ask.
                var locked: [KeychainItems] = []
                for name in names {
                    // A keychain deleted since Unlock has nothing left to unlock.
                    guard let items = try? keychains.items(in: name) else { continue }
                    if try items.isLocked() { locked.append(items) }
                }
                if locked.isEmpty {
                    try reply(to: request) { _ throws(BusFailure) in }
                    complete(number, .accepted)
                    return
                }
                guard let asker = try availableAsker(request, number, .noPrompter(locked[0].name)) else { return }
                prompts.markShown(number)
                try reply(to: request) { _ throws(BusFailure) in }
                let completions = completions
                let dismissal = prompt.dismissal
                let asked = locked
                Thread.detachNewThread {
                    var outcome = PromptOutcome.accepted
                    for keychain in asked where outcome == .accepted {
                        outcome = asker.ask(.unlocking(keychain: keychain.keychainName), dismissal: dismissal) { password in
                            keychain.unlock(password: password)
                        }
                    }
                    completions.post(.init(prompt: number, outcome: outcome))
                }
            case .createCollection(let label, _):
                guard let asker = try availableAsker(request, number, .noPrompterForNewPassword) else { return }
                prompts.markShown(number)
                try reply(to: request) { _ throws(BusFailure) in }
                let keychains = keychains
                let completions = completions
                let dismissal = prompt.dismissal
                Thread.detachNewThread {
                    var created: String?
                    let outcome = asker.askNew(label: label, dismissal: dismissal) { password in
                        switch keychains.create(labelled: label, password: password) {
                        case .success(let name):
                            created = name
                            return .accepted
                        case .failure(.failed(let reason)):
                            return .failed(reason)
                        }
                    }
                    completions.post(.init(prompt: number, outcome: outcome, createdCollection: created))
                }
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

    /// What asks on this machine; nil, with `failure` replied and the prompt completed as
    /// dismissed, when nothing can.
    private func availableAsker(_ request: Request, _ number: UInt64, _ failure: BusFailure) throws(BusFailure)
        -> PasswordAsker?
    {
        if let asker = PasswordAsker.available() { return asker }
        // The error first, so that a client reports it rather than a bare dismissal.
        try replyFailure(to: request, failure)
        complete(number, .dismissed)
        return nil
    }

    /// Emits the Completed signal of the prompt `number` and forgets the prompt: dismissed,
    /// or not with its result (the objects its Unlock named, now unlocked; the collection it
    /// created), then the signals of what changed.
    func complete(_ number: UInt64, _ outcome: PromptOutcome, createdCollection: String? = nil) {
        guard let prompt = prompts.remove(number) else { return }
        if case .failed(let reason) = outcome { Self.report("the prompt failed: \(reason)") }
        let accepted = outcome == .accepted
        var signal: OpaquePointer?
        let path = SecretObject.prompt(number: number).path
        guard sd_bus_message_new_signal(bus, &signal, path, Self.promptInterface, "Completed") >= 0, let signal else { return }
        defer { sd_bus_message_unref(signal) }
        let writer = MessageWriter(message: signal)
        do throws(BusFailure) {
            switch prompt.purpose {
            case .unlock(_, let objects):
                try writer.boolean(!accepted)
                try writer.open("v", "ao")
                try writer.objectPaths(accepted ? objects : [])
            case .createCollection:
                let created = accepted ? createdCollection : nil
                try writer.boolean(created == nil)
                try writer.open("v", "o")
                try writer.objectPath(created.map(SecretObject.collectionPath) ?? SecretObject.none)
            }
            try writer.close()
        } catch {
            return
        }
        _ = sd_bus_send(bus, signal, nil)
        guard accepted else { return }
        switch prompt.purpose {
        case .unlock(let names, _): names.forEach(lockChanged)
        case .createCollection(_, let alias):
            guard let createdCollection else { break }
            if let alias {
                // The collection exists either way; a client that finds the alias unset can set it again.
                do throws(BusFailure) {
                    try keychains.aliases.set(alias, to: createdCollection)
                } catch {
                    Self.report("the collection \(createdCollection) was created, but not its alias: \(error.message)")
                }
            }
            collectionsChanged("CollectionCreated", createdCollection)
        }
    }

    /// Completes the prompts whose asking ended; on the bus thread, when the loop is woken.
    func completeAskedPrompts() {
        for completion in completions.take() {
            complete(completion.prompt, completion.outcome, createdCollection: completion.createdCollection)
        }
    }

    /// Writes one line to the provider's standard error: what a user reading its log needs,
    /// never a secret.
    static func report(_ message: String) {
        let line = Array("keychain-secret-service: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
