import Foundation
@testable import KeychainCore
import Testing

/// The settings read once per process come from ProcessEnvironment, which reads only the
/// variables they use: each must be what the whole environment (Foundation's ProcessInfo)
/// gives, so that no setting misses a variable left out of ProcessEnvironment's names.
@Suite struct ProcessEnvironmentTests {
    @Test func theVariablesReadAreThoseOfTheWholeEnvironment() {
        let whole = ProcessInfo.processInfo.environment
        for name in ProcessEnvironment.names {
            #expect(ProcessEnvironment.variables[name] == whole[name], "\(name)")
        }
    }

    @Test func eachSettingIsTheOneTheWholeEnvironmentGives() {
        let whole = ProcessInfo.processInfo.environment
        let read = ProcessEnvironment.variables
        #expect(KeychainFiles.defaultDirectory(environment: read) == KeychainFiles.defaultDirectory(environment: whole))
        #expect(MachineSecret.defaultLocation(environment: read) == MachineSecret.defaultLocation(environment: whole))
        #expect(CallerIdentity.ofCurrentProcess(environment: read).accessGroups
            == CallerIdentity.ofCurrentProcess(environment: whole).accessGroups)
        // The same with each variable set alone, as a user may set it: a name left out of
        // ProcessEnvironment's would be missed here.
        let values = ["HOME": "/home/someone-else", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
                      "KEYCHAIN_ACCESS_GROUPS": "com.example.one,com.example.two"]
        for (name, value) in values {
            let set = [name: value]
            let kept = set.filter { ProcessEnvironment.names.contains($0.key) }
            #expect(KeychainFiles.defaultDirectory(environment: kept) == KeychainFiles.defaultDirectory(environment: set),
                    "\(name)")
            #expect(MachineSecret.defaultLocation(environment: kept) == MachineSecret.defaultLocation(environment: set),
                    "\(name)")
            #expect(CallerIdentity.ofCurrentProcess(environment: kept).accessGroups
                == CallerIdentity.ofCurrentProcess(environment: set).accessGroups, "\(name)")
        }
    }
}
