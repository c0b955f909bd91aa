// keychainctl: Keychain Services from the command line, speaking as macOS `security` does.
import Foundation
import KeychainCtlCommands

StandardDescriptors.occupyClosedOnes()
switch RawArguments.checked(RawArguments.ofProcess()) {
case .success(let arguments):
    ToolEntry.run(arguments)
case .failure(let invalid):
    ConsoleOutput.error(invalid.message)
    exit(2)
}
