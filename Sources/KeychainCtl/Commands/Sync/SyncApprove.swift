import ArgumentParser

/// `sync approve CODE`: admits the device that shows that code.
package struct SyncApprove<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "approve",
            abstract: "Admit the device whose sync join shows this code.",
            discussion: "Compare the code with the one on the joining machine; case and the dash do not matter.")
    }

    @Argument(help: "The code sync join printed, such as 4F7K2-QX9AB-M3N8P.") package var code: String
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func validate() throws {
        try Runner.validateJoinCode(code)
    }

    package func run() async throws {
        try await Runner.approve(self)
    }
}
