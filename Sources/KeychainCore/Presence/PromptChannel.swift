/// Where a presence check asks its questions: the controlling terminal when the process has
/// one, else the agent program `KEYCHAIN_ASKPASS` names. With neither there is no one to ask,
/// and callers answer `.notInteractive` at once: standard input is never read, since it may be
/// a pipe of data rather than a person.
enum PromptChannel {
    case terminal(TerminalPrompt)
    case agent(AskpassAgent)

    /// The channel of this process now, or nil when it has no terminal and no agent.
    static func available() -> PromptChannel? {
        if let terminal = TerminalPrompt() { return .terminal(terminal) }
        if let agent = AskpassAgent.fromEnvironment() { return .agent(agent) }
        return nil
    }

    /// Asks `prompt`, after `reason` (why the application asks) when there is one: the terminal
    /// shows the reason on a line of its own before the prompt; an agent gets both as its
    /// argument, on two lines.
    func ask(_ prompt: String, reason: String?, echo: Bool) -> Result<SecretBytes, PresenceFailure> {
        let reason = reason.flatMap { $0.isEmpty ? nil : $0 }
        switch self {
        case .terminal(let terminal):
            if let reason { terminal.show(reason + "\n") }
            return terminal.ask(prompt, echo: echo)
        case .agent(let agent):
            return agent.ask(reason.map { $0 + "\n" + prompt } ?? prompt)
        }
    }

    /// A message of PAM's (a warning that the password expires soon, say): shown on the
    /// terminal; an agent has nowhere to show it.
    func inform(_ message: String) {
        if case .terminal(let terminal) = self { terminal.show(message + "\n") }
    }
}
