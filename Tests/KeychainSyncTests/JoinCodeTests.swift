import Crypto
import Foundation
import KeychainSync
import Testing

/// The code a joiner shows and an approver types (contract: Join).
@Suite("Join requests and codes")
struct JoinCodeTests {
    /// The code computed independently: the first 75 bits of SHA-256(genesis hash ‖ identity),
    /// as a string of bits cut into 5-bit Crockford symbols.
    private func independentCode(genesisHash: Data, identity: Data) -> String {
        let bits = SHA256.hash(data: genesisHash + identity).map { byte in
            (0..<8).map { byte >> (7 - $0) & 1 == 1 ? "1" : "0" }.joined()
        }.joined()
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        let symbols = (0..<15).map { index in
            alphabet[Int(bits.dropFirst(index * 5).prefix(5), radix: 2) ?? 0]
        }
        return [0, 5, 10].map { String(symbols[$0..<$0 + 5]) }.joined(separator: "-")
    }

    @Test("Joiner and approver show the same code: Crockford base32 of SHA-256(genesis hash ‖ public identity), XXXXX-XXXXX-XXXXX")
    func sameOnBothSides() throws {
        let fixture = try SyncGroupFixture()
        let joiner = DeviceIdentity.generate(name: "phone")
        let request = try JoinRequest.make(group: fixture.group, genesisHash: fixture.chain.genesis.hash, device: joiner)
        let received = try JoinRequest(encoded: request.encoded)
        #expect(received.code == request.code)
        #expect(received.device == joiner.publicIdentity && received.group == fixture.group)
        #expect(request.code.description == independentCode(genesisHash: fixture.chain.genesis.hash,
                                                               identity: joiner.publicIdentity.encoded))
        #expect(JoinCode(parsing: request.code.description) == request.code)
    }

    @Test("Another device key or another genesis gives another code")
    func differsPerKeyAndGenesis() throws {
        let fixture = try SyncGroupFixture()
        let other = try SyncGroupFixture()
        let joiner = DeviceIdentity.generate(name: "phone")
        let code = try JoinRequest.make(group: fixture.group, genesisHash: fixture.chain.genesis.hash, device: joiner).code
        let otherKey = try JoinRequest.make(group: fixture.group, genesisHash: fixture.chain.genesis.hash,
                                            device: .generate(name: "phone")).code
        let otherGenesis = try JoinRequest.make(group: fixture.group, genesisHash: other.chain.genesis.hash, device: joiner).code
        #expect(code != otherKey && code != otherGenesis)
    }

    @Test("Parsing accepts lower case and missing dashes, reads I and L as 1 and O as 0, refuses anything else")
    func parsing() throws {
        let code = try #require(JoinCode(parsing: "4F7K2-QX9AB-M3N8P"))
        #expect(code.description == "4F7K2-QX9AB-M3N8P")
        #expect(JoinCode(parsing: "4f7k2-qx9ab-m3n8p") == code)
        #expect(JoinCode(parsing: "4F7K2QX9ABM3N8P") == code)
        #expect(JoinCode(parsing: " 4F7K2-QX9AB-M3N8P\t") == code)
        #expect(JoinCode(parsing: "11011-00000-1L0O0") == JoinCode(parsing: "ILO1l-oOoOo-11000"))
        #expect(JoinCode(parsing: "ILO1l-oOoOo-11000")?.description == "11011-00000-11000")
        for bad in ["", "4F7K2-QX9AB", "4F7K2-QX9AB-M3N8", "4F7K2-QX9AB-M3N8PQ", "4F7K-2QX9AB-M3N8P", "4F7K2-QX9AB-M3N8U",
                    "4F7K2--QX9AB-M3N8P", "4F7K2_QX9AB_M3N8P", "4F7K2-QX9AB-M3N8é", "4F7K2-QX9ABM3N8P"] {
            #expect(JoinCode(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("A join request altered anywhere (identity, genesis, group, signature) is rejected")
    func tamperedRequest() throws {
        let fixture = try SyncGroupFixture()
        let request = try JoinRequest.make(group: fixture.group, genesisHash: fixture.chain.genesis.hash,
                                           device: .generate(name: "phone"))
        for offset in 0..<request.encoded.count {
            #expect(rejection { _ = try JoinRequest(encoded: flipped(request.encoded, at: offset)) } != nil, "byte \(offset)")
        }
    }
}
