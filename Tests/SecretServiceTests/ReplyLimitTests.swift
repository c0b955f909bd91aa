import Foundation
@testable import SecretService
import Testing
import TestSupport

/// Replies of object paths too large for D-Bus (an array over 64 MiB, a message over 128 MiB:
/// the bus disconnects a sender of one) are refused with org.freedesktop.DBus.Error.LimitsExceeded
/// saying how many items matched, before they are built; `KEYCHAIN_SECRET_SERVICE_MAX_REPLY_BYTES`
/// lowers the limit. The size is checked against jeepney's D-Bus encoding, the provider live
/// with dbus-send.
@Suite struct ReplyLimitTests {
    static let login = "/org/freedesktop/secrets/collection/login"
    static let service = "/org/freedesktop/secrets"

    /// How many bytes jeepney (Python's D-Bus implementation, secretstorage's) encodes `lists`
    /// in, as a message body of that many `ao` values.
    private func jeepneySize(_ lists: [[String]], dataHome: URL) throws -> Int {
        let literal = "(" + lists.map { "[" + $0.map { "'\($0)'" }.joined(separator: ",") + "]," }.joined() + ")"
        let script = """
            from jeepney.low_level import parse_signature, Endianness
            lists = \(literal)
            print(len(parse_signature(list('(' + 'ao' * len(lists) + ')')).serialise(lists, 0, Endianness.little)))
            """
        let outcome = try ProgramProcess(executable: URL(fileURLWithPath: "/usr/bin/python3"))
            .run(["-c", script], dataHome: dataHome)
        guard outcome.status == 0, let size = Int(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("jeepney: \(outcome.errors)")
        }
        return size
    }

    /// The size computed before a reply is built is D-Bus's: equal to jeepney's for paths of
    /// every length modulo 4 (each path is padded to 4 bytes), for one list and for
    /// SearchItems' two, empty ones included.
    @Test func theComputedReplySizeIsTheEncodedSize() throws {
        let dataHome = TestScratch.folder("reply-limit")
        let paths = (0..<23).map { "/org/freedesktop/secrets/collection/c\(String(repeating: "x", count: $0))/item\($0)" }
        for lists in [[paths], [paths, []], [[], paths], [Array(paths.prefix(5)), Array(paths.suffix(7))], [[], []]] {
            #expect(ReplyLimit.encodedSize(of: lists).total == (try jeepneySize(lists, dataHome: dataHome)))
        }
    }

    /// A reply over D-Bus's limits is LimitsExceeded with the number of items and the advice
    /// to search by more attributes: an array of paths over 64 MiB even when the whole reply
    /// is allowed, and paths over the reply limit; one at the limit passes.
    @Test func aReplyPastDBusLimitsIsLimitsExceeded() throws {
        let path = "/" + String(repeating: "p", count: 65_535)
        let overArray = [String](repeating: path, count: Limits.busArrayBytes / (path.utf8.count + 5) + 1)
        do {
            try ReplyLimit(bytes: ReplyLimit.largest).check([overArray], matched: "SearchItems matched \(overArray.count) items")
            Issue.record("an array over 64 MiB was allowed")
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.LimitsExceeded")
            #expect(error.message.hasPrefix("SearchItems matched \(overArray.count) items, whose paths make a reply of"))
            #expect(error.message.contains("more than the 67108864 bytes a D-Bus array may take"))
            #expect(error.message.hasSuffix("search by more attributes to match fewer items"))
        }
        let three = ["/a/b", "/a/c", "/a/d"]
        let size = ReplyLimit.encodedSize(of: [three]).total
        #expect(throws: Never.self) { try ReplyLimit(bytes: size).check([three], matched: "three") }
        #expect(throws: BusFailure.self) { try ReplyLimit(bytes: size - 1).check([three], matched: "three") }
    }

    /// The setting is a number of bytes from 1024 to what D-Bus carries; anything else stops
    /// the provider at its start with a message naming the variable, rather than being ignored.
    @Test func aBadReplyLimitSettingStopsTheProviderWithAMessage() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        for value in ["12", "many", "-5", "\(ReplyLimit.largest + 1)"] {
            let outcome = try ProgramProcess("keychain-secret-service").run(
                [], dataHome: bus.dataHome,
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, ReplyLimit.environmentVariable: value])
            #expect(outcome.status == 1)
            #expect(outcome.errors == "keychain-secret-service: \(ReplyLimit.environmentVariable) must be a number of "
                    + "bytes from 1024 to \(ReplyLimit.largest), not '\(value)'\n")
        }
    }

    /// Live, with the limit lowered to the size of 12 item paths in SearchItems' reply: 12
    /// matches are answered; 13 are LimitsExceeded saying "13 items" (Service.SearchItems,
    /// Collection.SearchItems, and the collection's Items), never an empty answer or the
    /// provider's end; a narrower search still works after.
    @Test func aReplyPastTheLimitIsLimitsExceededAndTheProviderServesOn() throws {
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        // An item's path: its collection's and 40 hex digits of its reference.
        let itemPath = Self.login + "/" + String(repeating: "0", count: 40)
        let limit = try jeepneySize([[String](repeating: itemPath, count: 12), []], dataHome: bus.dataHome)
        try bus.startProvider(environment: [ReplyLimit.environmentVariable: "\(limit)"])
        let store = try bus.run("/usr/bin/python3", ["-c", """
            import secretstorage
            collection = secretstorage.get_default_collection(secretstorage.dbus_init())
            for number in range(13):
                collection.create_item(f'item {number}', {'kind': 'many', 'group': 'a' if number < 12 else 'b'}, b'secret')
            """])
        #expect(store.status == 0, "\(store.errors)")

        func send(_ path: String, _ member: String, _ arguments: String...) throws -> ProgramProcess.Outcome {
            try bus.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets", path, member]
                        + arguments)
        }
        let twelve = try send(Self.service, "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:group,a")
        #expect(twelve.status == 0, "\(twelve.errors)")
        #expect(twelve.output.components(separatedBy: "object path \"\(Self.login)/").count - 1 == 12)

        let expected = "Error org.freedesktop.DBus.Error.LimitsExceeded: "
        let all = try send(Self.service, "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:kind,many")
        #expect(all.status != 0)
        #expect(all.errors.hasPrefix(expected + "SearchItems matched 13 items, whose paths make a reply of"), "\(all.errors)")
        #expect(all.errors.contains("more than the \(limit) bytes \(ReplyLimit.environmentVariable) allows; "
                                    + "search by more attributes to match fewer items"), "\(all.errors)")
        let inCollection = try send(Self.login, "org.freedesktop.Secret.Collection.SearchItems", "dict:string:string:kind,many")
        #expect(inCollection.errors.hasPrefix(expected + "SearchItems matched 13 items in login"), "\(inCollection.errors)")
        let items = try send(Self.login, "org.freedesktop.DBus.Properties.Get",
                             "string:org.freedesktop.Secret.Collection", "string:Items")
        #expect(items.errors.hasPrefix(expected + "the collection login holds 13 items"), "\(items.errors)")

        let one = try send(Self.service, "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:group,b")
        #expect(one.status == 0, "\(one.errors)")
        #expect(one.output.components(separatedBy: "object path \"\(Self.login)/").count - 1 == 1)
        #expect(bus.providerIsRunning)
    }
}
