import ArgumentParser

/// `sync setup`: makes this machine the first member of a new sync group.
package struct SyncSetup<Runner: SyncCommandRunner>: AsyncParsableCommand {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "setup",
            abstract: "Create a sync group on a PostgreSQL server, with this machine as its first member.",
            discussion: """
                Creates the server's tables when they are missing (or brings them up to date), a new \
                group, and this device's keys, which never leave it. From then on, every \
                synchronizable item of the keychain goes to the group when sync run runs.

                The server is a PostgreSQL URL: postgres://user[:password]@host[:port]/database. Over \
                TCP it uses TLS and checks the server's certificate against the system's CAs \
                (sslrootcert=<file> names your own CA; sslmode=require encrypts without checking; \
                sslmode=disable turns TLS off); postgres:///database?host=/run/postgresql uses a Unix \
                socket. A password on the command line shows in ps: give the URL in \
                KEYCHAIN_SYNC_SERVER instead of --server. The URL is kept in the keychain, sealed, \
                for sync run.
                """)
    }

    @Option(help: "The PostgreSQL server, as a URL (default: $KEYCHAIN_SYNC_SERVER).") package var server: String?
    @Option(help: "This device's name in the group (default: the host name).") package var name: String?
    @Flag(help: "Also write a systemd user unit that runs sync run.") package var installUnit = false
    @Flag(help: """
        Only create or update the server's tables and the keychain_sync_member role, as the \
        database's owner: no group is created and no keychain is touched.
        """) package var serverOnly = false
    @OptionGroup package var options: SyncOptions

    package init() {}

    package func run() async throws {
        try await Runner.setup(self)
    }
}
