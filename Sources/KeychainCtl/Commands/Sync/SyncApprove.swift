import ArgumentParser
import KeychainSync

/// `sync approve CODE`: admits the device that shows that code.
struct SyncApprove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Admit the device whose sync join shows this code.",
        discussion: "Compare the code with the one on the joining machine; case and the dash do not matter.")

    @Argument(help: "The code sync join printed, such as 4F7K2-QX9AB-M3N8P.") var code: String
    @OptionGroup var options: SyncOptions

    func validate() throws {
        guard JoinCode(parsing: code) != nil else {
            throw ValidationError("'\(code)' is not a join code: 15 letters and digits, such as 4F7K2-QX9AB-M3N8P.")
        }
    }

    func run() async throws {
        guard let code = JoinCode(parsing: code) else { throw ValidationError("not a join code") }
        let keychain = try SyncInvocation.keychain(options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let device = try await SyncInvocation.run("approve") { () async throws(SyncFailure) in
            try await membership.approve(code: code)
        }
        ConsoleOutput.write("Approved \(device.name) (\(device.id.shortHex)): it is now a member of the sync group.\n")
    }
}
