// docker-credential-keychain: Docker's credential helper over the keychain. Docker runs it
// as `docker-credential-keychain store|get|erase|list|version`, with JSON or a server URL on
// standard input; as every helper of docker-credential-helpers, it writes its answer, or the
// reason it failed, on standard output, where Docker reads it.
import CredentialHelperSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes `bytes` as the answer and ends the process with `status`.
func finish(_ bytes: Data, status: Int32) -> Never {
    guard StandardStreams.writeOutput(bytes) else {
        StandardStreams.writeError("docker-credential-keychain: cannot write to standard output")
        exit(1)
    }
    exit(status)
}

StandardStreams.occupyClosedDescriptors()
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    finish(Data("Usage: docker-credential-keychain <store|get|erase|list|version>\n".utf8), status: 1)
}

do throws(HelperFailure) {
    switch arguments[1] {
    case "store":
        try DockerCredentialActions.store(try StandardStreams.readInput(limit: StandardStreams.requestLimit))
        finish(Data(), status: 0)
    case "get":
        finish(try DockerCredentialActions.get(try StandardStreams.readInput(limit: StandardStreams.requestLimit)), status: 0)
    case "erase":
        try DockerCredentialActions.erase(try StandardStreams.readInput(limit: StandardStreams.requestLimit))
        finish(Data(), status: 0)
    case "list":
        finish(try DockerCredentialActions.list(), status: 0)
    case "version":
        finish(Data("docker-credential-keychain (swift-keychain) \(HelperVersion.current)\n".utf8), status: 0)
    default:
        throw HelperFailure("Unknown credential action `\(arguments[1])`")
    }
} catch {
    finish(Data((error.message + "\n").utf8), status: 1)
}
