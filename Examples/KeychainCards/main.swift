// The sample app of the book chapter "Using Keychain to Secure Data" as a terminal program:
// a PIN protects credit cards kept in the keychain, through KeychainItemWrapper.
//
//   swift run keychain-cards
//
// The first launch asks for a new PIN twice; every later launch asks for it, and three wrong
// tries end the program. Then: add, list, show and delete cards (the chapter's first
// exercise), or reset, which erases the PIN and the cards.
import Foundation
import Keychain

let console = Console()
do {
    let lock = try PINLock()
    switch try Unlock(lock: lock, console: console).run() {
    case .unlocked:
        try CardCommands(store: try CardStore(), lock: lock, console: console).run()
    case .refused(let reason):
        console.complain(reason)
        exit(1)
    }
} catch {
    console.complain("The keychain failed: \(error)")
    exit(2)
}
