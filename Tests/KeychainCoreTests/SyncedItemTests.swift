import Foundation
@testable import KeychainCore
import Testing
import TestSupport

/// The form sync seals (sync contract, SyncedItem): every class round-trips, padded to a
/// size class; a tombstone carries the identity only; the identity is the same on every
/// machine; anything malformed is errSecDecode, never a trap.
@Suite struct SyncedItemTests {
    static let created = Date(timeIntervalSince1970: 1_600_000_000.5)
    static let modified = Date(timeIntervalSince1970: 1_700_000_000.125)

    /// A synchronizable item of `itemClass` with attributes of every kind its class has.
    static func item(_ itemClass: ItemClass) -> SyncedItem {
        var attributes: [String: AttributeValue] = [
            "agrp": .string(SyncTestKeychain.group), "pdmn": .string(Accessibility.afterFirstUnlock.rawValue),
            "sync": .number(1), "cdat": .date(created), "mdat": .date(modified), "labl": .string("label ✓"),
        ]
        let secret: Data
        switch itemClass {
        case .genericPassword:
            attributes.merge(["acct": .string("alice"), "svce": .string("mail"), "gena": .data(Data([0, 1, 2])),
                              "invi": .number(1)]) { $1 }
            secret = Data("generic secret".utf8)
        case .internetPassword:
            attributes.merge(["acct": .string("bob"), "srvr": .string("example.com"), "ptcl": .number(0x68747073),
                              "port": .number(443), "path": .string("/login")]) { $1 }
            secret = Data("internet secret".utf8)
        case .certificate:
            attributes.merge(["ctyp": .number(3), "issr": .data(Data([0x30, 1])), "slnr": .data(Data([2, 9])),
                              "pkhh": .data(Data(repeating: 7, count: 20)), "subj": .data(Data([0x30, 0]))]) { $1 }
            secret = Data((0..<700).map { UInt8($0 % 251) })
        case .key, .identity:
            attributes.merge(["kcls": .number(1), "klbl": .data(Data(repeating: 9, count: 20)),
                              "atag": .data(Data("com.example.key".utf8)), "bsiz": .number(256), "sign": .number(1)]) { $1 }
            secret = Data((0..<121).map { UInt8($0) })
        }
        return SyncedItem(itemClass: itemClass == .identity ? .key : itemClass, attributes: attributes, secret: secret)
    }

    @Test("SyncedItem: every stored class round-trips through its serialized form, which is padded to a size class",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func roundTrip(itemClass: ItemClass) throws {
        let item = Self.item(itemClass)
        let serialized = item.serialized(includingSecret: true)
        #expect(try SyncedItem(serialized: serialized) == item)
        #expect(serialized.count == SizeClassPadding.paddedCount(serialized.count - 1) || serialized.count % 4096 == 0)
        #expect([32, 64, 128, 256, 512, 1024, 2048, 4096].contains(serialized.count) || serialized.count % 4096 == 0)
        #expect(item.modificationTime == 1_700_000_000_125)
    }

    @Test("SyncedItem: a tombstone's content holds the class and the identity's attributes only, no secret, and names the same item")
    func tombstoneCarriesTheIdentityOnly() throws {
        let item = Self.item(.genericPassword)
        let tombstone = try SyncedItem(serialized: item.serialized(includingSecret: false))
        #expect(tombstone.secret == nil)
        #expect(Set(tombstone.attributes.keys) == ["acct", "svce", "agrp", "sync"])
        #expect(tombstone.identityBytes == item.identityBytes)
        #expect(!item.serialized(includingSecret: false).contains(Data("generic secret".utf8)))
    }

    @Test("SyncedItem: the identity covers class and primary key only, and is the same read from two keychains with different keys")
    func identityIsTheSameOnEveryMachine() throws {
        let item = Self.item(.internetPassword)
        var relabeled = item
        relabeled.attributes["labl"] = .string("other")
        relabeled.secret = Data("other".utf8)
        #expect(relabeled.identityBytes == item.identityBytes)
        var otherPort = item
        otherPort.attributes["port"] = .number(8443)
        #expect(otherPort.identityBytes != item.identityBytes)
        var asGeneric = item
        asGeneric.itemClass = .genericPassword
        asGeneric.attributes = asGeneric.attributes.filter { ["acct", "agrp", "sync"].contains($0.key) }
        #expect(asGeneric.identityBytes != item.identityBytes)
        // Two machines: each keychain has its own index key, the identity bytes are the same.
        let first = try SyncTestKeychain("synced-item-first"), second = try SyncTestKeychain("synced-item-second")
        guard case .applied(let firstRow) = try first.store.applySyncedItem(item, knownLog: 0),
              case .applied(let secondRow) = try second.store.applySyncedItem(item, knownLog: 0) else {
            Issue.record("not applied"); return
        }
        let a = try #require(try first.store.syncedItem(rowID: firstRow))
        let b = try #require(try second.store.syncedItem(rowID: secondRow))
        #expect(a.identityBytes == b.identityBytes && a.identityBytes == item.identityBytes)
    }

    @Test("SyncedItem: malformed forms are errSecDecode: empty, truncated, wrong padding, unknown version, kind or class, an item that does not sync")
    func malformedIsDecode() throws {
        let good = Self.item(.genericPassword).serialized(includingSecret: true)
        var cases: [Data] = [Data(), Data([0x80]), good.dropLast(), good + Data(count: 32), Data(repeating: 0, count: 64)]
        for index in 0..<3 {
            var damaged = good
            damaged[index] ^= 0x55
            cases.append(damaged)
        }
        // A secret length that runs past the end.
        var longSecret = good
        longSecret[3] = 0x7F
        cases.append(longSecret)
        func form(_ item: SyncedItem) -> Data { item.serialized(includingSecret: true) }
        var notSync = Self.item(.genericPassword)
        notSync.attributes["sync"] = .number(0)
        var thisDevice = Self.item(.genericPassword)
        thisDevice.attributes["pdmn"] = .string(Accessibility.whenUnlockedThisDeviceOnly.rawValue)
        var noGroup = Self.item(.genericPassword)
        noGroup.attributes["agrp"] = nil
        var noDates = Self.item(.genericPassword)
        noDates.attributes["mdat"] = nil
        var wrongType = Self.item(.genericPassword)
        wrongType.attributes["acct"] = .date(Date())
        var foreign = Self.item(.genericPassword)
        foreign.attributes["kcls"] = .number(1)
        var badDate = Self.item(.genericPassword)
        badDate.attributes["cdat"] = .date(Date(timeIntervalSinceReferenceDate: .nan))
        cases += [form(notSync), form(thisDevice), form(noGroup), form(noDates), form(wrongType), form(foreign), form(badDate)]
        for (index, bytes) in cases.enumerated() {
            #expect(throws: KeychainError.decode, "case \(index)") { try SyncedItem(serialized: bytes) }
        }
    }

    @Test("SyncedItem: random bytes and random damage to a valid form never trap; random bytes never decode (seeded, repeatable)")
    func fuzzNeverTraps() throws {
        var generator = SeededGenerator(seed: 0x5EED_5_1C)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...300, using: &generator)
            let bytes = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(throws: KeychainError.decode) { try SyncedItem(serialized: bytes) }
        }
        let good = Self.item(.key).serialized(includingSecret: true)
        for _ in 0..<3_000 {
            var damaged = good
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            // Damage inside the secret or a value still reads (the AEAD around it is what
            // rejects it in sync); whatever reads is a valid item that serializes the same.
            do {
                let item = try SyncedItem(serialized: damaged)
                #expect(item.serialized(includingSecret: item.secret != nil) == damaged)
            } catch {
                #expect(error == .decode)
            }
        }
    }
}
