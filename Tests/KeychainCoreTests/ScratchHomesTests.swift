import Foundation
import KeychainCore
import Testing
import TestSupport

/// Tests use scratch folders: the folders the library takes from the environment when a call
/// names none (the default keychain folder, the machine secret) are the test process's own,
/// never the user's `~/.local/share/keychains` or `~/.local/state/swift-keychain`.
@Suite struct ScratchHomesTests {
    @Test("the default keychain folder and the machine secret of a test process are in its scratch folder")
    func defaultFoldersAreScratchFolders() throws {
        let homes = try #require(TestScratch.homes, "CScratchHomes made no folder").standardizedFileURL.path + "/"
        #expect(KeychainFiles.defaultDirectory().standardizedFileURL.path.hasPrefix(homes))
        let files = KeychainFiles(directory: TestScratch.folder("keychain"), name: "login")
        #expect(files.machineSecret.standardizedFileURL.path.hasPrefix(homes))
    }

    @Test("the user's KEYCHAIN_ variables do not reach the tests: they set those they need")
    func libraryVariablesAreRemoved() {
        let environment = ProcessInfo.processInfo.environment
        for name in ["KEYCHAIN_ACCESS_GROUPS", "KEYCHAIN_NO_KERNEL_KEYRING", "KEYCHAIN_MACHINE_ID_FILE"] {
            #expect(environment[name] == nil, "\(name) is set")
        }
    }
}
