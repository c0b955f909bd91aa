import Foundation
import Security
import Testing
import TestSupport

/// Where a process's access groups come from, in order: KEYCHAIN_ACCESS_GROUPS, the
/// `<executable>.entitlements` property list, the application identifier.
@Suite struct AccessGroupSourceTests {
    @Test func theEnvironmentVariableComesFirst() throws {
        let groups = try HelperProcess.run(["groups"], dataHome: nil, accessGroups: "team.first, team.second,,")
        #expect(groups == "team.first,team.second")
    }

    /// A copy of the helper in its own folder, optionally with an entitlements file.
    func helperCopy(entitlements: String?) throws -> URL {
        let folder = TestScratch.folder("helper")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("my-tool")
        try FileManager.default.copyItem(at: HelperProcess.executable, to: copy)
        if let entitlements {
            try Data(entitlements.utf8).write(to: folder.appendingPathComponent("my-tool.entitlements"))
        }
        return copy
    }

    @Test func anEntitlementsFileBesideTheExecutableGivesTheGroups() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>keychain-access-groups</key>
              <array><string>ABCDE12345.com.example.tool</string><string>ABCDE12345.com.example.shared</string></array>
            </dict></plist>
            """
        let tool = try helperCopy(entitlements: plist)
        let groups = try HelperProcess.run(["groups"], dataHome: nil, accessGroups: nil, executable: tool)
        #expect(groups == "ABCDE12345.com.example.tool,ABCDE12345.com.example.shared")
    }

    @Test func withoutEitherTheExecutableNameIsTheGroup() throws {
        let tool = try helperCopy(entitlements: nil)
        #expect(try HelperProcess.run(["groups"], dataHome: nil, accessGroups: nil, executable: tool) == "my-tool")
    }

    @Test func aMalformedEntitlementsFileFallsBackToTheExecutableName() throws {
        let tool = try helperCopy(entitlements: "not a property list")
        #expect(try HelperProcess.run(["groups"], dataHome: nil, accessGroups: nil, executable: tool) == "my-tool")
    }

    @Test func itemsAreStoredUnderXDGDataHome() throws {
        let dataHome = TestScratch.folder("xdg")
        #expect(try HelperProcess.run(["add", "frank", "pw"], dataHome: dataHome, accessGroups: "g") == "\(errSecSuccess)")
        let folder = dataHome.appendingPathComponent("keychains")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("login.keychain-db").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("login.keychain-key").path))
    }
}
