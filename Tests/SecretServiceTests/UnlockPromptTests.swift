import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Locking and unlock prompts (Secret Service API 0.2, "Locking and Unlocking" and
/// "Prompts and Prompting"): Service.Lock locks the keychain for every process of the user
/// (SecKeychainLock); Service.Unlock of the locked keychain returns a Prompt whose Prompt
/// call asks for the keychain's password through pinentry (Assuan) or systemd-ask-password,
/// off the bus thread; Completed tells the outcome. Driven by Python's secretstorage, a real
/// client, with a fake pinentry first on the provider's PATH.
@Suite struct UnlockPromptTests {
    static let password = "pass%word 1"
    /// The password as Assuan's `D` line carries it: `%` escaped as `%25`.
    static let passwordOnTheWire = "pass%25word 1"

    /// A folder, the provider's whole PATH, holding a fake `pinentry` that speaks Assuan: it logs
    /// each command's name to `commands` (never a password), answers GETPIN with the lines of
    /// `answers` in turn, over all its runs (`CANCEL` answers ERR 83886179, as a cancelled
    /// pinentry does), and,
    /// when `hold` exists, creates `asking` and waits for `go` before answering.
    struct FakePrompter {
        let folder: URL

        init(_ name: String = "pinentry", answers: [String]) throws {
            folder = TestScratch.folder("fake-prompter")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script: String
            if name == "pinentry" {
                script = """
                    #!/bin/sh
                    PATH=/usr/bin:/bin
                    dir='\(folder.path)'
                    echo "OK Pleased to meet you"
                    while IFS= read -r line; do
                      command=${line%% *}
                      echo "$command" >> "$dir/commands"
                      case "$command" in
                        GETPIN)
                          if [ -e "$dir/hold" ]; then
                            : > "$dir/asking"
                            while [ ! -e "$dir/go" ]; do sleep 0.05; done
                          fi
                          n=$(grep -c '^GETPIN$' "$dir/commands")
                          pin=$(sed -n "${n}p" "$dir/answers")
                          if [ "$pin" = CANCEL ]; then echo "ERR 83886179 Operation cancelled <Pinentry>"
                          else printf 'S PASSWORD_FROM_CACHE\\nD %s\\nOK\\n' "$pin"; fi ;;
                        BYE) echo "OK closing connection"; exit 0 ;;
                        *) echo OK ;;
                      esac
                    done
                    """
            } else {
                // systemd-ask-password: one answer per run, the message logged.
                script = """
                    #!/bin/sh
                    PATH=/usr/bin:/bin
                    dir='\(folder.path)'
                    for argument; do last=$argument; done
                    echo "$last" >> "$dir/commands"
                    n=$(( $(wc -l < "$dir/commands") ))
                    pin=$(sed -n "${n}p" "$dir/answers")
                    [ "$pin" = CANCEL ] && exit 1
                    printf '%s\\n' "$pin"
                    """
            }
            let program = folder.appendingPathComponent(name)
            try script.write(to: program, atomically: false, encoding: .utf8)
            chmod(program.path, 0o755)
            try (answers.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("answers"),
                                                              atomically: false, encoding: .utf8)
        }

        /// The provider's environment for it: only its folder on the PATH, and for a pinentry
        /// a display to show on (the fake shows nothing, but the provider uses pinentry only
        /// where one could).
        var providerEnvironment: [String: String?] {
            let isPinentry = FileManager.default.fileExists(atPath: folder.appendingPathComponent("pinentry").path)
            return ["PATH": folder.path, "DISPLAY": isPinentry ? ":0" : nil, "WAYLAND_DISPLAY": nil]
        }

        var commands: [String] {
            let text = (try? String(contentsOf: folder.appendingPathComponent("commands"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        func touch(_ name: String) {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
        }

        /// Waits, at most 60 seconds, for the fake to create `name`.
        func waitFor(_ name: String) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) { return true }
                usleep(20_000)
            }
            return false
        }
    }

    /// A private bus whose provider has only `prompter`'s folder on its PATH (or an empty
    /// folder: neither pinentry nor systemd-ask-password), and a login keychain with a
    /// password holding one item, locked.
    /// With `storingNote`, it also holds an item secret-tool stored by attributes of its own
    /// (`kind` `note`, `topic` `locked`), which has neither service nor account.
    private func withLockedKeychain(prompter: FakePrompter?, storingNote: Bool = false,
                                    _ body: (PrivateSessionBus) throws -> Void) throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let path = prompter?.folder ?? TestScratch.folder("empty-path")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        try bus.startProvider(environment: prompter?.providerEnvironment ?? ["PATH": path.path])
        #expect(try bus.keychainctl("create-keychain", "-p", Self.password, "login").status == 0)
        #expect(try bus.keychainctl("add-generic-password", "-s", "locked.example", "-a", "me", "-w", "pw").status == 0)
        if storingNote {
            let store = try bus.secretTool("store", "--label=note", "kind", "note", "topic", "locked", input: "note text")
            #expect(store.status == 0, "\(store.errors)")
        }
        // Service.Lock, through a real client.
        let lock = try python(bus, "collection.lock(); print(collection.is_locked())")
        #expect(lock.output == "True\n", "\(lock.errors)")
        try body(bus)
    }

    private func python(_ bus: PrivateSessionBus, _ script: String) throws -> ProgramProcess.Outcome {
        let prelude = """
            import secretstorage, sys
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)

            """
        return try bus.run("/usr/bin/python3", ["-c", prelude + script])
    }

    /// Lock is the keychain's own lock, shared by every process of the user: keychainctl sees
    /// the keychain locked, and a search the keychain's indexes show to match nothing is an
    /// empty answer, with no prompt. Unlock returns a prompt; pinentry is
    /// asked (title, description, prompt, then GETPIN) and its password, percent-escaped on
    /// the wire, unlocks the keychain for everyone; Completed says not dismissed.
    @Test func pinentryAnswersTheUnlockPromptAndTheKeychainUnlocksForEveryone() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        try withLockedKeychain(prompter: pinentry) { bus in
            let locked = try bus.keychainctl("find-generic-password", "-s", "locked.example", "-w")
            #expect(locked.status != 0 && locked.output.isEmpty)
            let search = try python(bus, "print(len(list(collection.search_items({'service': 'locked.example', 'type': 'x'}))))")
            #expect(search.output == "0\n", "\(search.errors)")
            #expect(pinentry.commands.isEmpty)

            let unlock = try python(bus, "print(collection.unlock(), collection.is_locked())")
            #expect(unlock.output == "False False\n", "\(unlock.errors)")
            #expect(pinentry.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "BYE"])
            #expect(try bus.secretTool("lookup", "service", "locked.example", "account", "me").output == "pw")
            #expect(try bus.keychainctl("find-generic-password", "-s", "locked.example", "-w").output == "pw\n")
            // The password never reaches the provider's log.
            #expect(!(try bus.providerErrors()).contains("word"))
        }
    }

    /// Service.SearchItems on a locked keychain names the items its service and account show
    /// to match as locked (the API's second list), so that libsecret unlocks them with a
    /// prompt: secret-tool lookup asks pinentry and prints the secret; a lookup of an item
    /// that is not there asks nothing.
    @Test func secretToolLookupOnALockedKeychainPromptsAndReadsTheSecret() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        try withLockedKeychain(prompter: pinentry) { bus in
            let missing = try bus.secretTool("lookup", "service", "other.example", "account", "me")
            #expect(missing.status != 0 && missing.output.isEmpty)
            #expect(pinentry.commands.isEmpty)
            let search = try bus.call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
                                      "a{ss}", "1", "service", "locked.example")
            #expect(search.output.hasPrefix("aoao 0 1 \"/org/freedesktop/secrets/collection/login/"), "\(search.errors)")
            let lookup = try bus.secretTool("lookup", "service", "locked.example", "account", "me")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "pw")
            #expect(pinentry.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "BYE"])
            #expect(try bus.keychainctl("find-generic-password", "-s", "locked.example", "-w").output == "pw\n")
        }
    }

    /// An item found by attributes other than service and account is named as locked too:
    /// the keychain finds it by the keyed hashes of its attribute pairs without opening it,
    /// so `secret-tool lookup kind note topic locked` prompts and prints it, and one of those
    /// attributes with a value no item has asks nothing.
    @Test func secretToolLookupByAnyAttributesOnALockedKeychainPrompts() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        try withLockedKeychain(prompter: pinentry, storingNote: true) { bus in
            let missing = try bus.secretTool("lookup", "kind", "note", "topic", "other")
            #expect(missing.status != 0 && missing.output.isEmpty)
            #expect(pinentry.commands.isEmpty)
            let search = try bus.call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
                                      "a{ss}", "1", "topic", "locked")
            #expect(search.output.hasPrefix("aoao 0 1 \"/org/freedesktop/secrets/collection/login/"), "\(search.errors)")
            let lookup = try bus.secretTool("lookup", "kind", "note", "topic", "locked")
            #expect(lookup.status == 0, "\(lookup.errors)")
            #expect(lookup.output == "note text")
            #expect(pinentry.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "BYE"])
        }
    }

    /// A locked collection still lists its items (its Items property), as GNOME Keyring does:
    /// their paths come from the keychain's columns, without opening any item.
    @Test func aLockedCollectionListsItsItems() throws {
        try withLockedKeychain(prompter: nil, storingNote: true) { bus in
            let items = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets",
                                                         "/org/freedesktop/secrets/collection/login",
                                                         "org.freedesktop.Secret.Collection", "Items"])
            #expect(items.output.hasPrefix("ao 2 \"/org/freedesktop/secrets/collection/login/"), "\(items.errors)")
            let secret = try bus.secretTool("lookup", "kind", "note", "topic", "locked")
            #expect(secret.status != 0 && secret.output.isEmpty)
        }
    }

    /// A wrong password is asked again with SETERROR, three tries in all; then the prompt
    /// completes dismissed and the keychain stays locked. A cancelled pinentry dismisses at once.
    @Test func wrongPasswordsOrCancelDismissAndTheKeychainStaysLocked() throws {
        let pinentry = try FakePrompter(answers: ["wrong", "also wrong", "still wrong"])
        try withLockedKeychain(prompter: pinentry) { bus in
            let unlock = try python(bus, "print(collection.unlock(), collection.is_locked())")
            #expect(unlock.output == "True True\n", "\(unlock.errors)")
            #expect(pinentry.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "SETERROR", "GETPIN",
                                          "SETERROR", "GETPIN", "BYE"])
            #expect(try bus.keychainctl("find-generic-password", "-s", "locked.example", "-w").status != 0)
        }
        let cancelling = try FakePrompter(answers: ["CANCEL"])
        try withLockedKeychain(prompter: cancelling) { bus in
            let unlock = try python(bus, "print(collection.unlock(), collection.is_locked())")
            #expect(unlock.output == "True True\n", "\(unlock.errors)")
            #expect(cancelling.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "BYE"])
        }
    }

    /// With neither pinentry nor systemd-ask-password, Prompt fails at once with a message
    /// naming keychainctl unlock-keychain (and Completed says dismissed): no hang.
    @Test func withNothingToAskThePromptFailsClearly() throws {
        try withLockedKeychain(prompter: nil) { bus in
            let unlock = try python(bus, """
                from secretstorage.util import unlock_objects
                try:
                    unlock_objects(connection, [collection.collection_path])
                    print('no error')
                except Exception as error:
                    print(error)
                print(collection.is_locked())
                """)
            #expect(unlock.output.contains("keychainctl unlock-keychain"), "\(unlock.output) \(unlock.errors)")
            #expect(unlock.output.hasSuffix("True\n"))
            #expect(bus.providerIsRunning)
        }
    }

    /// A prompt waiting for the user blocks no one: while pinentry waits, another client is
    /// served; Dismiss from the prompt's client stops pinentry and completes dismissed.
    @Test func aWaitingPromptBlocksNoOtherClientAndDismissStopsIt() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        pinentry.touch("hold")
        try withLockedKeychain(prompter: pinentry) { bus in
            let client = try SpawnedProcess(
                "/usr/bin/python3", ["-c", """
                    import os, sys, time, secretstorage
                    from jeepney import MatchRule, MessageType
                    from secretstorage.util import DBusAddressWrapper
                    connection = secretstorage.dbus_init()
                    collection = secretstorage.get_default_collection(connection)
                    service = DBusAddressWrapper('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', connection)
                    unlocked, path = service.call('Unlock', 'ao', [collection.collection_path])
                    prompt = DBusAddressWrapper(path, 'org.freedesktop.Secret.Prompt', connection)
                    rule = MatchRule(path=path, interface='org.freedesktop.Secret.Prompt', member='Completed', type=MessageType.signal)
                    with connection.filter(rule) as signals:
                        prompt.call('Prompt', 's', '')
                        while not os.path.exists(sys.argv[1] + '/dismiss'): time.sleep(0.02)
                        prompt.call('Dismiss', '')
                        dismissed, result = connection.recv_until_filtered(signals).body
                    print(dismissed, result[1], collection.is_locked())
                    """, pinentry.folder.path],
                environment: bus.environment, stdin: .open("/dev/null", O_RDONLY), stdout: .pipe,
                stderr: .open("/dev/null", O_WRONLY))
            defer { if client.poll() == nil { client.kill() } }
            #expect(pinentry.waitFor("asking"))
            // pinentry is asking: other clients are served all the same.
            let other = try bus.run("/usr/bin/busctl", ["--user", "get-property", "org.freedesktop.secrets",
                                                        "/org/freedesktop/secrets/collection/login",
                                                        "org.freedesktop.Secret.Collection", "Locked"])
            #expect(other.output == "b true\n", "\(other.errors)")
            pinentry.touch("dismiss")
            #expect(client.readOutputToEnd() == "True [] True\n")
            #expect(client.wait().status == 0)
            #expect(!pinentry.commands.contains("BYE"), "Dismiss stopped pinentry before it answered")
        }
    }

    /// Without pinentry, systemd-ask-password asks (the password on its standard output);
    /// a wrong answer is asked again.
    @Test func systemdAskPasswordAsksWhenThereIsNoPinentry() throws {
        let asker = try FakePrompter("systemd-ask-password", answers: ["wrong", Self.password])
        try withLockedKeychain(prompter: asker) { bus in
            let unlock = try python(bus, "print(collection.unlock(), collection.is_locked())")
            #expect(unlock.output == "False False\n", "\(unlock.errors)")
            #expect(asker.commands.count == 2)
            #expect(asker.commands.last?.hasPrefix("The password was wrong.") == true)
            #expect(try bus.secretTool("lookup", "service", "locked.example", "account", "me").output == "pw")
        }
    }

    /// A listing that includes locked items (`secret-tool search --all`, which reads every
    /// item's properties) succeeds on a locked keychain, as on GNOME Keyring: each locked item
    /// is Locked, shows the attributes the search found it by (its label and the rest are
    /// sealed in the keychain), and no secret is given; nothing is asked.
    @Test func lockedItemsAreListedWithoutTheirSecrets() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        try withLockedKeychain(prompter: pinentry) { bus in
            let search = try bus.secretTool("search", "--all", "service", "locked.example")
            #expect(search.status == 0, "\(search.errors)")
            let lines = (search.output + search.errors).split(separator: "\n").map(String.init)
            #expect(lines.contains("attribute.service = locked.example"), "\(lines)")
            #expect(!lines.contains { $0.hasPrefix("secret = ") }, "\(lines)")
            let listed = try python(bus, """
                item, = secretstorage.search_items(connection, {'service': 'locked.example'})
                print(item.is_locked(), item.get_attributes(), repr(item.get_label()))
                """)
            #expect(listed.output == "True {'service': 'locked.example'} ''\n", "\(listed.errors)")
            #expect(pinentry.commands.isEmpty, "\(pinentry.commands)")
        }
    }

    /// Prompts and sessions are their client's: another connection of the same user can
    /// neither show nor dismiss a prompt it did not get, nor read, store or close through a
    /// session it did not open (NoSuchObject, NoSession), and its attempts change nothing for
    /// the owner, whose prompt then asks once and unlocks. While locked, GetSecret and
    /// GetSecrets with the owner's own session are IsLocked: no secret leaves a locked keychain.
    @Test func anotherClientCanUseNeitherThePromptNorTheSessionOfAClient() throws {
        let pinentry = try FakePrompter(answers: [Self.passwordOnTheWire])
        try withLockedKeychain(prompter: pinentry) { bus in
            let outcome = try bus.run("/usr/bin/python3", ["-c", """
                from jeepney import DBusAddress, new_method_call, MessageType, HeaderFields, MatchRule, message_bus
                from jeepney.io.blocking import open_dbus_connection
                owner = open_dbus_connection(bus='SESSION')
                other = open_dbus_connection(bus='SESSION')
                def call(connection, path, interface, member, signature='', body=()):
                    address = DBusAddress(path, bus_name='org.freedesktop.secrets', interface=interface)
                    message = new_method_call(address, member, signature, body)
                    message.header.flags |= 2  # no auto-start: never another provider in its place
                    reply = connection.send_and_get_reply(message, timeout=120)
                    if reply.header.message_type == MessageType.error:
                        return reply.header.fields[HeaderFields.error_name].rsplit('.', 1)[1]
                    return reply.body
                service = '/org/freedesktop/secrets'
                interface = 'org.freedesktop.Secret.Service'
                _, session = call(owner, service, interface, 'OpenSession', 'sv', ('plain', ('s', '')))
                (item,), = call(owner, service, interface, 'SearchItems', 'a{ss}', ({'service': 'locked.example'},))[1:]
                print('locked', call(owner, item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,)),
                      call(owner, service, interface, 'GetSecrets', 'aoo', ([item], session)))
                unlocked, prompt = call(owner, service, interface, 'Unlock', 'ao', ([service + '/collection/login'],))
                print('unlock', unlocked, prompt.startswith(service + '/prompt/'))
                p = 'org.freedesktop.Secret.Prompt'
                print('other', call(other, prompt, p, 'Prompt', 's', ('',)), call(other, prompt, p, 'Dismiss'),
                      call(other, item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,)),
                      call(other, item, 'org.freedesktop.Secret.Item', 'SetSecret', '(oayays)',
                           ((session, b'', b'stolen', 'text/plain'),)),
                      call(other, service + '/collection/session', 'org.freedesktop.Secret.Collection', 'CreateItem',
                           'a{sv}(oayays)b', ({}, (session, b'', b'x', 'text/plain'), False)),
                      call(other, session, 'org.freedesktop.Secret.Session', 'Close'))
                rule = MatchRule(type='signal', interface=p, member='Completed', path=prompt)
                owner.send_and_get_reply(message_bus.AddMatch(rule))
                with owner.filter(rule) as completed:
                    print('prompt', call(owner, prompt, p, 'Prompt', 's', ('',)))
                    dismissed, result = owner.recv_until_filtered(completed, timeout=60).body
                print('completed', dismissed, result)
                print('secret', bytes(call(owner, item, 'org.freedesktop.Secret.Item', 'GetSecret', 'o', (session,))[0][2]))
                """])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == """
                locked IsLocked IsLocked
                unlock [] True
                other NoSuchObject NoSuchObject NoSession NoSession NoSession NoSession
                prompt ()
                completed False ('ao', ['/org/freedesktop/secrets/collection/login'])
                secret b'pw'

                """)
            #expect(pinentry.commands == ["SETTITLE", "SETDESC", "SETPROMPT", "GETPIN", "BYE"], "\(pinentry.commands)")
        }
    }
}
