import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `keychain-secret-service --install`: the session bus's activation file and the systemd
/// user unit, in a scratch HOME, naming the running executable; files another program wrote
/// are left alone unless `--force`; and a bus whose services folder holds the activation file
/// starts the provider on the first call to org.freedesktop.secrets (D-Bus activation).
@Suite struct ActivationTests {
    /// A scratch HOME with the XDG folders under it, as a user's would be.
    struct ScratchHome {
        let home = TestScratch.folder("activation-home")
        var dataHome: URL { home.appendingPathComponent(".local/share") }
        var busServiceFile: URL { dataHome.appendingPathComponent("dbus-1/services/org.freedesktop.secrets.service") }
        var unitFile: URL { home.appendingPathComponent(".config/systemd/user/keychain-secret-service.service") }

        func install(_ arguments: String...) throws -> ProgramProcess.Outcome {
            try ProgramProcess("keychain-secret-service").run(
                arguments, dataHome: dataHome, environment: ["HOME": home.path, "XDG_CONFIG_HOME": nil])
        }
    }

    static var executable: String { ProgramProcess("keychain-secret-service").executable.resolvingSymlinksInPath().path }

    /// Both files are written, naming the executable by its absolute path, and rewritten by a
    /// second --install (they are the provider's own).
    @Test func installWritesTheActivationFileAndTheUserUnit() throws {
        let scratch = ScratchHome()
        let first = try scratch.install("--install")
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains(scratch.busServiceFile.path) && first.output.contains(scratch.unitFile.path))
        let service = try String(contentsOf: scratch.busServiceFile, encoding: .utf8)
        let lines = service.split(separator: "\n").map(String.init)
        #expect(lines.contains("[D-BUS Service]"))
        #expect(lines.contains("Name=org.freedesktop.secrets"))
        #expect(lines.contains("Exec=\(Self.executable)"))
        #expect(lines.contains("SystemdService=keychain-secret-service.service"))
        let unit = try String(contentsOf: scratch.unitFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(unit.contains("Type=dbus"))
        #expect(unit.contains("BusName=org.freedesktop.secrets"))
        #expect(unit.contains("ExecStart=\(Self.executable)"))
        #expect(try scratch.install("--install").status == 0)
    }

    /// A file the provider did not write is never replaced without --force, and then neither
    /// file is written (no half-done install); --force replaces it.
    @Test func aFileAnotherProgramWroteIsKeptUnlessForced() throws {
        let scratch = ScratchHome()
        try FileManager.default.createDirectory(at: scratch.busServiceFile.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        let foreign = "[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/usr/bin/gnome-keyring-daemon --start\n"
        try foreign.write(to: scratch.busServiceFile, atomically: false, encoding: .utf8)
        let refused = try scratch.install("--install")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("was not written by keychain-secret-service")
                && refused.errors.contains("--force"), "\(refused.errors)")
        #expect(try String(contentsOf: scratch.busServiceFile, encoding: .utf8) == foreign)
        #expect(!FileManager.default.fileExists(atPath: scratch.unitFile.path))

        // A symbolic link in its place is not ours either: refused, its target untouched.
        let target = scratch.home.appendingPathComponent("target.service")
        try foreign.write(to: target, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(at: scratch.busServiceFile)
        try FileManager.default.createSymbolicLink(at: scratch.busServiceFile, withDestinationURL: target)
        #expect(try scratch.install("--install").status == 1)

        let forced = try scratch.install("--install", "--force")
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(try String(contentsOf: scratch.busServiceFile, encoding: .utf8).contains("Exec=\(Self.executable)\n"))
        #expect(try String(contentsOf: target, encoding: .utf8) == foreign)
        #expect(FileManager.default.fileExists(atPath: scratch.unitFile.path))
        #expect(try scratch.install("--bogus").status == 2)
    }

    /// With the activation file in the bus's services folder and no provider running, the first
    /// call starts one: secret-tool stores and finds an item, in this user's keychain.
    @Test func theBusStartsTheProviderOnFirstCall() throws {
        let scratch = ScratchHome()
        #expect(try scratch.install("--install").status == 0)
        let bus = try PrivateSessionBus(servicesFolder: scratch.busServiceFile.deletingLastPathComponent())
        defer { bus.stop() }
        let store = try bus.secretTool("store", "--label", "Activated", "service", "activated.example", "account", "me",
                                       input: "first call")
        #expect(store.status == 0, "\(store.errors)")
        #expect(try bus.secretTool("lookup", "service", "activated.example", "account", "me").output == "first call")
        // The item is in the keychain the bus gave the provider (XDG_DATA_HOME), as keychainctl sees it.
        #expect(try bus.keychainctl("find-generic-password", "-s", "activated.example", "-w").output == "first call\n")
        // The provider the bus started: it leaves when the bus ends.
        let owner = try bus.run("/usr/bin/busctl", ["--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                    "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s",
                                                    "org.freedesktop.secrets"])
        let pid = pid_t(owner.output.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "") ?? 0
        #expect(pid > 0, "\(owner.output) \(owner.errors)")
        let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
        #expect(command.hasPrefix(Self.executable), "\(command)")
        _ = bus.stopBusOnly()
        let deadline = Date().addingTimeInterval(60)
        while Self.isRunning(pid), Date() < deadline { usleep(20_000) }
        #expect(!Self.isRunning(pid), "the activated provider outlived its bus")
        if Self.isRunning(pid) { kill(pid, SIGKILL) }
    }

    /// Whether process `pid` runs (a zombie waiting to be reaped has ended).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let state = stat.split(separator: ")").last?.split(separator: " ").first else { return false }
        return state != "Z" && state != "X"
    }
}
