import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's side of the program: prompts and messages out, answers in.
///
/// Answers are lines of standard input. When that is a terminal, secrets (the PIN, the CV2
/// code) are typed without echo; when it is a pipe or a file, as in the tests, they are
/// plain lines like every other answer.
struct Console {
    let isTerminal = isatty(STDIN_FILENO) == 1

    func say(_ text: String) {
        print(text)
    }

    /// Writes to standard error, for messages that end the program.
    func complain(_ text: String) {
        fflush(nil)   // so the message comes after what was already printed
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// One answer, trimmed; nil when the input has ended.
    func ask(_ prompt: String) -> String? {
        showPrompt(prompt)
        return readAnswer()
    }

    /// One answer typed without echo when standard input is a terminal.
    func askSecret(_ prompt: String) -> String? {
        showPrompt(prompt)
        guard isTerminal else { return readAnswer() }
        let answer = EchoOff.during { readLine() }
        print("")   // the user's Enter was not echoed either
        return answer?.trimmingCharacters(in: .whitespaces)
    }

    private func readAnswer() -> String? {
        let answer = readLine()
        // Piped answers are not echoed, so end the prompt's line here to keep the output readable.
        if !isTerminal { print("") }
        return answer?.trimmingCharacters(in: .whitespaces)
    }

    private func showPrompt(_ prompt: String) {
        print(prompt, terminator: "")
        fflush(nil)   // a prompt has no newline, so stdout would hold it back
    }
}
