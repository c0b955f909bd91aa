import ArgumentParser
import KeychainSync

/// `sync setup`: makes this machine the first member of a new sync group.
struct SyncSetup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: "The PostgreSQL server, as a URL (default: $KEYCHAIN_SYNC_SERVER).") var server: String?
    @Option(help: "This device's name in the group (default: the host name).") var name: String?
    @Flag(help: "Also write a systemd user unit that runs sync run.") var installUnit = false
    @Flag(help: """
        Only create or update the server's tables and the keychain_sync_member role, as the \
        database's owner: no group is created and no keychain is touched.
        """) var serverOnly = false
    @OptionGroup var options: SyncOptions

    func run() async throws {
        if serverOnly { return try await prepareServer() }
        let keychain = try SyncInvocation.keychain(options)
        let membership = keychain.membership(logger: SyncInvocation.logger)
        let (server, name) = (try SyncInvocation.serverAddress(self.server), self.name ?? SyncInvocation.hostName)
        let configuration = try await SyncInvocation.run("setup") { () async throws(SyncFailure) in
            try await membership.setup(server: server, deviceName: name)
        }
        ConsoleOutput.write("""
            Created sync group \(configuration.group.hex) with this device, \(name) (\(configuration.device.publicIdentity.id.shortHex)).
            On another machine: keychainctl sync join --server <the same server>

            """)
        if installUnit { try SyncRun.installUnit(keychain) }
    }

    /// `--server-only`: the tables and the member role, for the database's owner.
    private func prepareServer() async throws {
        let server = try SyncInvocation.serverAddress(self.server)
        let roleExists = try await SyncInvocation.run("setup") { () async throws(SyncFailure) in
            try await SyncServerPreparation.prepare(server: server, logger: SyncInvocation.logger)
        }
        if roleExists {
            ConsoleOutput.write("""
                The sync tables are ready. Give each machine a login role of its own, then use it in that machine's --server:
                    CREATE ROLE <name> LOGIN PASSWORD '...' IN ROLE keychain_sync_member;

                """)
        } else {
            ConsoleOutput.write("""
                The sync tables are ready, but this role may not create keychain_sync_member. Have an administrator run
                    CREATE ROLE keychain_sync_member NOLOGIN;
                then run this command again, and give each machine a login role in it.

                """)
        }
    }
}
