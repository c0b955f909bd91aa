/// The prompts Unlock handed out, each belonging to the client that called Unlock (only it
/// may show or dismiss it; they go when it leaves the bus). A prompt lives from Unlock until
/// its Completed signal. Used on the bus thread only.
struct UnlockPrompts {
    struct Prompt {
        let owner: String
        /// The objects Unlock was asked for, reported as unlocked when the keychain is.
        let objects: [String]
        let dismissal = PromptDismissal()
        /// Whether Prompt was called: it asks at most once.
        var shown = false
    }

    private var prompts: [UInt64: Prompt] = [:]
    private var nextNumber: UInt64 = 1

    /// A new prompt for `owner`'s Unlock of `objects`; its object.
    mutating func create(for owner: String, objects: [String]) throws(BusFailure) -> SecretObject {
        guard prompts.count < Limits.prompts else {
            throw .failed("too many pending prompts (\(Limits.prompts)); complete or dismiss some first")
        }
        guard prompts.values.count(where: { $0.owner == owner }) < Limits.promptsPerClient else {
            throw .failed("this client has \(Limits.promptsPerClient) pending prompts; complete or dismiss some first")
        }
        let number = nextNumber
        nextNumber += 1
        prompts[number] = Prompt(owner: owner, objects: objects)
        return .prompt(number: number)
    }

    /// The prompt `number`, which `client` must own.
    func prompt(_ number: UInt64, of client: String) throws(BusFailure) -> Prompt {
        guard let prompt = prompts[number], prompt.owner == client else {
            throw .noSuchObject(SecretObject.prompt(number: number).path)
        }
        return prompt
    }

    /// Marks the prompt `number` as shown.
    mutating func markShown(_ number: UInt64) {
        prompts[number]?.shown = true
    }

    /// Removes the prompt `number` once completed; it, or nil when it was gone already.
    mutating func remove(_ number: UInt64) -> Prompt? {
        prompts.removeValue(forKey: number)
    }

    /// Dismisses and removes every prompt of a client that left the bus.
    mutating func dismissAll(of client: String) {
        for (number, prompt) in prompts where prompt.owner == client {
            prompt.dismissal.dismiss()
            prompts[number] = nil
        }
    }

    func exists(_ number: UInt64) -> Bool { prompts[number] != nil }
}
