// git-credential-keychain: git's credential helper over the keychain. git runs it as
// `git-credential-keychain get|store|erase` with the credential on standard input.
import CredentialHelperSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let usage = "usage: git-credential-keychain <get|store|erase>"

/// Ends the process after `message` on standard error, with status 1.
func fail(_ message: String) -> Never {
    StandardStreams.writeError("git-credential-keychain: \(message)")
    exit(1)
}

StandardStreams.occupyClosedDescriptors()
let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail(usage) }
let action = arguments[1]
guard ["get", "store", "erase"].contains(action) else {
    // git asks helpers to ignore actions they do not know, so that newer git can add some.
    exit(0)
}

do throws(HelperFailure) {
    let input = try StandardStreams.readInput(limit: StandardStreams.requestLimit,
                                              isComplete: GitCredentialRequest.isComplete)
    let actions = GitCredentialActions(request: try GitCredentialRequest(parsing: input))
    switch action {
    case "get":
        guard StandardStreams.writeOutput(try actions.get()) else { fail("cannot write the answer to standard output") }
    case "store":
        try actions.store()
    default:
        try actions.erase()
    }
} catch {
    fail("\(action) failed: \(error.message)")
}
