/// The prompts Unlock and CreateCollection handed out, each belonging to the client that
/// called (only it may show or dismiss it; they go when it leaves the bus). A prompt lives
/// from the call until its Completed signal. Used on the bus thread only.
struct Prompts {
    /// What a prompt asks for.
    enum Purpose: Sendable {
        /// The passwords of the locked `keychains`, one after the other; `objects` are the
        /// objects Unlock was asked for in them, reported as unlocked when they all are.
        case unlock(keychains: [String], objects: [String])
        /// A new keychain's password, twice, for a collection labelled `label`; `alias`, when
        /// given, is set to name the new collection.
        case createCollection(label: String, alias: String?)
    }

    struct Prompt {
        let purpose: Purpose
        let dismissal = PromptDismissal()
        /// Whether Prompt was called: it asks at most once.
        var shown = false
    }

    private var prompts = ClientObjects<Prompt>(
        limit: Limits.prompts, limitPerClient: Limits.promptsPerClient, noun: "pending prompts",
        remedy: "complete or dismiss some first")

    /// A new prompt for `owner`'s call; its object.
    mutating func create(for owner: String, _ purpose: Purpose) throws(BusFailure) -> SecretObject {
        .prompt(number: try prompts.add(Prompt(purpose: purpose), for: owner))
    }

    /// The prompt `number`, which `client` must own.
    func prompt(_ number: UInt64, of client: String) throws(BusFailure) -> Prompt {
        guard let prompt = prompts.value(number, of: client) else {
            throw .noSuchObject(SecretObject.prompt(number: number).path)
        }
        return prompt
    }

    /// Marks the prompt `number` as shown.
    mutating func markShown(_ number: UInt64) {
        prompts.update(number) { $0.shown = true }
    }

    /// Removes the prompt `number` once completed; it, or nil when it was gone already.
    mutating func remove(_ number: UInt64) -> Prompt? {
        prompts.remove(number)
    }

    /// Dismisses and removes every prompt of a client that left the bus.
    mutating func dismissAll(of client: String) {
        for prompt in prompts.removeAll(of: client) { prompt.dismissal.dismiss() }
    }

    func exists(_ number: UInt64) -> Bool { prompts.exists(number) }
}
