// keychain-pam-helper: what pam_keychain runs, as the user, to unlock, change or lock the
// login keychain (see LoginKeychainAtLogin). The module writes the passwords on standard input,
// each followed by a NUL; this program prints one line saying what it did, never a secret,
// and exits with a status the module reads:
//
//   0  done                        10  the keychain's password is not the one given
//   11 no login keychain           12  unlocked already (unlock leaves it as it is)
//   1  failed (the line says why)   2  wrong arguments
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage: keychain-pam-helper unlock [--timeout SECONDS]   (password on standard input)
           keychain-pam-helper change                       (old and new passwords on standard input)
           keychain-pam-helper lock
           keychain-pam-helper --install --module PATH [--root DIR]
    Run by pam_keychain.so as the user whose login keychain it is; not meant to be run by hand,
    except --install (as root): it copies itself to /usr/local/libexec/swift-keychain, the module
    built by Scripts/build-pam-module into the system's PAM modules, and on Debian and Ubuntu a
    pam-auth-update profile (then run pam-auth-update --enable keychain).
    """

func finish(_ outcome: LoginKeychainAtLogin.Outcome) -> Never {
    print(outcome.line)
    exit(outcome.status)
}

func readPasswords(_ count: Int) -> HelperInput {
    do {
        return try HelperInput.read(count: count)
    } catch {
        finish(.failed("\(error)"))
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())

// Installing: as root (or into a staging folder).
if arguments.first == "--install" {
    var module: String?
    var root = ""
    var rest = arguments.dropFirst()
    while let option = rest.popFirst() {
        switch option {
        case "--module" where !rest.isEmpty: module = rest.popFirst()
        case "--root" where !rest.isEmpty: root = rest.popFirst() ?? ""
        default:
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(2)
        }
    }
    guard let module, root.isEmpty || root.hasPrefix("/") else {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
    do {
        for line in try Installation.install(module: module, root: root) { print(line) }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("keychain-pam-helper: \(error)\n".utf8))
        exit(1)
    }
}

// The helper works on the keychain of whoever runs it: never root's at login.
if geteuid() == 0 {
    finish(.failed("run as root; pam_keychain runs this helper as the user"))
}

switch arguments.first {
case "unlock":
    var timeout: UInt32?
    if arguments.count == 3, arguments[1] == "--timeout", let seconds = UInt32(arguments[2]), seconds < .max {
        timeout = seconds
    } else if arguments.count != 1 {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(2)
    }
    var input = readPasswords(1)
    let outcome = LoginKeychainAtLogin.unlock(password: input.passwords[0], timeout: timeout)
    input.wipe()
    finish(outcome)
case "change" where arguments.count == 1:
    var input = readPasswords(2)
    let outcome = LoginKeychainAtLogin.change(old: input.passwords[0], new: input.passwords[1])
    input.wipe()
    finish(outcome)
case "lock" where arguments.count == 1:
    finish(LoginKeychainAtLogin.lock())
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
