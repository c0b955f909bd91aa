import Foundation
import Security
import TestSupport

/// A user with an empty keychain folder (`$XDG_DATA_HOME`) and an empty home, who runs the
/// credential helpers as git and Docker run them, and keychainctl to look at what they kept.
struct CredentialHelperUser {
    let dataHome = TestScratch.folder("credential-helpers")
    let home = TestScratch.folder("credential-helpers-home")

    let gitHelper = ProgramProcess("git-credential-keychain")
    let dockerHelper = ProgramProcess("docker-credential-keychain")
    let keychainctl = ProgramProcess("keychainctl")
    let git = ProgramProcess(executable: URL(fileURLWithPath: "/usr/bin/git"))

    /// git's environment: no configuration but the command line's, and no prompt, so that a
    /// credential the helper does not give makes `git credential fill` fail.
    var gitEnvironment: [String: String?] {
        [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": nil, "SSH_ASKPASS": nil,
            "GIT_TRACE": nil, "GIT_TRACE_CURL": nil,
        ]
    }

    /// Runs `git credential <action>` (fill, approve, reject) with the helper as the only
    /// credential helper, as a user configures it (`credential.helper=/path/to/helper`).
    func gitCredential(_ action: String, _ input: String, useHttpPath: Bool = false) throws -> ProgramProcess.Outcome {
        var arguments = ["-c", "credential.helper=", "-c", "credential.helper=\(gitHelper.executable.path)"]
        if useHttpPath { arguments += ["-c", "credential.useHttpPath=true"] }
        return try git.run(arguments + ["credential", action], input: input, dataHome: dataHome, environment: gitEnvironment)
    }

    /// The `key=value` lines of a successful `git credential fill`, as a dictionary.
    func fill(_ input: String, useHttpPath: Bool = false) throws -> [String: String]? {
        let outcome = try gitCredential("fill", input, useHttpPath: useHttpPath)
        guard outcome.status == 0 else { return nil }
        return Self.fields(outcome.output)
    }

    /// Runs `git-credential-keychain <action>` directly with `input`, as git runs it.
    func gitHelper(_ action: String, _ input: String) throws -> ProgramProcess.Outcome {
        try gitHelper.run([action], input: input, dataHome: dataHome)
    }

    /// Runs `docker-credential-keychain <action>` with `input`, as Docker runs it.
    func docker(_ action: String, _ input: String = "") throws -> ProgramProcess.Outcome {
        try dockerHelper.run([action], input: input, dataHome: dataHome)
    }

    /// Runs keychainctl in this user's keychain folder.
    func keychainctl(_ arguments: String...) throws -> ProgramProcess.Outcome {
        try keychainctl.run(arguments, dataHome: dataHome)
    }

    /// The internet passwords of the login keychain in access group `group`, with their
    /// attributes and secrets, read through Security in this process.
    func storedItems(group: String) throws -> [[String: Any]] {
        let environment = KeychainEnvironment(directory: dataHome.appendingPathComponent("keychains"), accessGroups: [group])
        return try KeychainEnvironment.withValue(environment) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching([
                kSecClass as String: kSecClassInternetPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true, kSecReturnData as String: true,
            ] as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else {
                throw StoredItemsError(status: status)
            }
            return items
        }
    }

    /// Input written as lines: `["a=1", "b=2"]` is "a=1\nb=2\n\n".
    static func lines(_ lines: String...) -> String {
        lines.map { $0 + "\n" }.joined() + "\n"
    }

    /// The `key=value` lines of an answer.
    static func fields(_ output: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}

struct StoredItemsError: Error {
    let status: OSStatus
}

extension Dictionary where Key == String, Value == Any {
    /// A string attribute by its `kSecAttr*` key.
    func text(_ key: CFString) -> String? { self[key as String] as? String }
    /// A number attribute by its `kSecAttr*` key.
    func number(_ key: CFString) -> Int? { (self[key as String] as? NSNumber)?.intValue }
    /// The secret as text.
    var secret: String? { (self[kSecValueData as String] as? Data).flatMap { String(data: $0, encoding: .utf8) } }
}
