import Foundation
import Keychain
import Security
import Testing
import TestSupport

@Suite struct ValueFormatTests {
    let keychainFiles = PrivateKeychain()
    let keychain = Keychain(service: "com.example.values")

    @Test func valuesReadBackAsWritten() throws {
        try keychainFiles.run {
            try keychain.set("", forKey: "empty")
            try keychain.set("ünïcødé ✓", forKey: "text")
            try keychain.set(Data([0, 255, 7]), forKey: "bytes")
            try keychain.set(false, forKey: "bool")
            try keychain.set(Int64.min, forKey: "int64")
            try keychain.set(UInt64.max, forKey: "uint64")
            try keychain.set(0.1, forKey: "double")
            try keychain.set(Float(-2.5e-7), forKey: "float")
            try keychain.set(Int8(-8), forKey: "int8")

            #expect(try keychain.string(forKey: "empty") == "")
            #expect(try keychain.string(forKey: "text") == "ünïcødé ✓")
            #expect(try keychain.data(forKey: "bytes") == Data([0, 255, 7]))
            #expect(try keychain.value(forKey: "bool", as: Bool.self) == false)
            #expect(try keychain.value(forKey: "int64", as: Int64.self) == Int64.min)
            #expect(try keychain.value(forKey: "uint64", as: UInt64.self) == UInt64.max)
            #expect(try keychain.value(forKey: "double", as: Double.self) == 0.1)
            #expect(try keychain.value(forKey: "float", as: Float.self) == Float(-2.5e-7))
            #expect(try keychain.value(forKey: "int8", as: Int8.self) == -8)
        }
    }

    /// The stored bytes are the documented formats, so other code can read them.
    @Test func storedBytesAreThePlainFormats() throws {
        try keychainFiles.run {
            try keychain.set(true, forKey: "bool")
            try keychain.set(42, forKey: "int")
            try keychain.set(1.5, forKey: "double")
            try keychain.set("é", forKey: "text")
            #expect(try keychain.data(forKey: "bool") == Data([1]))
            #expect(try keychain.data(forKey: "int") == Data("42".utf8))
            #expect(try keychain.data(forKey: "double") == Data("1.5".utf8))
            #expect(try keychain.data(forKey: "text") == Data([0xC3, 0xA9]))
        }
    }

    @Test func bytesOfAnotherTypeThrowDecodeError() throws {
        try keychainFiles.run {
            try keychain.set(Data([0xFF, 0xFE]), forKey: "binary")
            try keychain.set("yes", forKey: "word")
            #expect(keychainError { _ = try keychain.string(forKey: "binary") }?.status == errSecDecode)
            #expect(keychainError { _ = try keychain.value(forKey: "word", as: Int.self) }?.status == errSecDecode)
            #expect(keychainError { _ = try keychain.value(forKey: "word", as: Bool.self) }?.status == errSecDecode)
            #expect(keychainError { _ = try keychain.value(forKey: "word", as: UInt8.self) }?.status == errSecDecode)
            // "300" is a number, but not a UInt8.
            try keychain.set(300, forKey: "big")
            #expect(keychainError { _ = try keychain.value(forKey: "big", as: UInt8.self) }?.status == errSecDecode)
        }
    }

    struct Card: Codable, Equatable, Sendable {
        var holder: String
        var number: String
        var expiry: Date
    }

    @Test func codableValuesAreStoredAsJSON() throws {
        try keychainFiles.run {
            let card = Card(holder: "A. Person", number: "4111111111111111", expiry: Date(timeIntervalSince1970: 1_900_000_000))
            try keychain.encode(card, forKey: "card")
            #expect(try keychain.decode(Card.self, forKey: "card") == card)
            let json = try #require(try keychain.data(forKey: "card"))
            #expect(try JSONDecoder().decode(Card.self, from: json) == card)
            #expect(keychainError { _ = try keychain.decode([Int].self, forKey: "card") }?.status == errSecDecode)
        }
    }

    @Test func unencodableValueIsAParamErrorAndWritesNothing() throws {
        try keychainFiles.run { () throws in
            #expect(keychainError { try keychain.encode(Double.nan, forKey: "nan") }?.status == errSecParam)
            #expect(try keychain.contains("nan") == false)
        }
    }
}
