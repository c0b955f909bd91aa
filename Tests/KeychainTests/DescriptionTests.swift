import Foundation
import Keychain
import Security
import Testing
import TestSupport

/// Secrets in output (issue 3, scope 5): the public types of the Keychain module never show
/// a stored secret in `description`, `debugDescription`, `String(reflecting:)` or `dump`,
/// and its errors show no stored value at all.
@Suite struct DescriptionTests {
    let keychainFiles = PrivateKeychain()
    static let secret = "MkSecret5Hj8Wq2"
    static let label = "MkLabel9Df3Kt6"

    /// The secret as text, or as the decimal bytes `dump` prints for a `Data`.
    static func showsSecret(_ value: Any) -> Bool {
        let bytes = Array(secret.utf8).prefix(6).map(String.init)
        return renderings(of: value).contains { text in
            let numbers = text.split(whereSeparator: { !$0.isNumber }).map(String.init)
            return text.contains(secret) || numbers.indices.contains { numbers[$0...].starts(with: bytes) }
        }
    }

    @Test func itemsAndKeychainsNeverShowTheSecret() throws {
        try keychainFiles.run {
            let keychain = Keychain(service: "descriptions").label(Self.label)
            try keychain.set(Self.secret, forKey: "k")
            let items = try keychain.allItems()
            let item = try #require(items.first)
            #expect(item.label == Self.label)
            for value: Any in [item, items, keychain, Keychain.AttributeValue.string("x")] {
                #expect(!Self.showsSecret(value), "\(renderings(of: value))")
            }
            // KeychainItem's description names its attributes without their values.
            #expect(!item.description.contains(Self.label))
            #expect(!String(reflecting: item).contains(Self.label))
        }
    }

    @Test func errorsAboutAStoredValueNeverShowIt() throws {
        try keychainFiles.run {
            let keychain = Keychain(service: "descriptions")
            try keychain.set(Self.secret, forKey: "k")
            var errors: [KeychainError] = []
            do { _ = try keychain.decode([Int].self, forKey: "k") } catch let error as KeychainError { errors.append(error) }
            do { _ = try keychain.value(forKey: "k", as: Int.self) } catch let error as KeychainError { errors.append(error) }
            do { _ = try keychain.value(forKey: "k", as: Bool.self) } catch let error as KeychainError { errors.append(error) }
            do { try Keychain(service: "descriptions", accessGroup: "not-mine").set(Self.secret, forKey: "k") } catch let error as KeychainError { errors.append(error) }
            #expect(errors.count == 4)
            for error in errors {
                #expect(!Self.showsSecret(error), "\(renderings(of: error))")
                #expect(!error.message.contains(Self.secret) && !(error.reason ?? "").contains(Self.secret))
                #expect(!(error as Error).localizedDescription.contains(Self.secret))
            }
        }
    }
}
