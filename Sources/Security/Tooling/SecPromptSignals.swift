@_implementationOnly import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// keychainctl's password prompt keeps the terminal right under every signal through the
/// core's one mechanism, which the presence prompt uses too: restored when a signal ends or
/// stops the process, silenced again when it continues.
package enum SecPromptSignals {
    /// For the program's own prompt on `descriptor`, whose settings were `settings` before it
    /// and are `prompting` during it: it takes the place of the Swift runtime's handlers, and
    /// a signal that ends the process exits with 128 + the signal.
    package static func begin(descriptor: Int32, settings: termios, prompting: termios) {
        TerminalRestoration.begin(descriptor: descriptor, settings: settings, prompting: prompting, ownPrompt: true)
    }

    /// Once the prompt's settings are undone.
    package static func end() {
        TerminalRestoration.end()
    }
}
