import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The scripts a user meets first (Scripts/keychainctl, Scripts/ensure-system-packages.sh),
/// run by bash in a scratch folder whose PATH holds stub programs: each stub records how it
/// was called, so that the tests see what the scripts would install or build without
/// installing or building anything.
@Suite struct SetUpScriptTests {
    /// The package's `Scripts` folder, found from this file's path.
    static let scripts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts")

    /// A scratch folder with a `stubs` folder for PATH and a log of the stubs' calls.
    struct Sandbox {
        let folder = TestScratch.folder("set-up-scripts")
        var stubs: URL { folder.appendingPathComponent("stubs") }
        var calls: URL { folder.appendingPathComponent("calls") }

        init() throws {
            try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        }

        /// A program `name` on the stubs' PATH: a /bin/sh script that logs `name arguments...`,
        /// then runs `body`.
        func stub(_ name: String, _ body: String = "exit 0") throws {
            let file = stubs.appendingPathComponent(name)
            try "#!/bin/sh\necho \"\(name) $*\" >> \"$CALLS\"\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }

        /// A real program on the stubs' PATH, for a test whose PATH holds nothing else.
        func link(_ name: String, to path: String) throws {
            try FileManager.default.createSymbolicLink(
                atPath: stubs.appendingPathComponent(name).path, withDestinationPath: path)
        }

        /// The stubs' calls so far, one line each.
        func loggedCalls() throws -> [String] {
            guard FileManager.default.fileExists(atPath: calls.path) else { return [] }
            return try String(contentsOf: calls, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        /// Runs bash with `arguments`, with PATH set to `path` (the stubs alone unless told).
        func bash(_ arguments: [String], path: String? = nil) throws -> (status: Int32, output: String, errors: String) {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path ?? stubs.path
            environment["CALLS"] = calls.path
            environment["STUBS"] = stubs.path
            return try SpawnedProcess.runToEnd("/bin/bash", arguments, environment: environment, outputIn: folder)
        }

        /// Sources Scripts/ensure-system-packages.sh as the other scripts do, then prints "sourced".
        func ensureSystemPackages() throws -> (status: Int32, output: String, errors: String) {
            let script = SetUpScriptTests.scripts.appendingPathComponent("ensure-system-packages.sh").path
            return try bash(["-c", "set -euo pipefail; source \"$1\"; echo sourced", "bash", script])
        }

        /// A sudo that runs its command, for a test run by a user other than root.
        func sudo() throws {
            try stub("sudo", "exec \"$@\"")
        }

        /// pkg-config that knows SQLite once `installed` exists in the stubs folder, and what an
        /// installer stub runs to make it exist and to put a sqlite3 shell on PATH.
        func sqliteKnownOnceInstalled() throws {
            try stub("pkg-config", "[ -e \"$STUBS/installed\" ]")
        }
        static let installSQLite = """
            : > "$STUBS/installed"
            printf '#!/bin/sh\\n' > "$STUBS/sqlite3"
            /bin/chmod 755 "$STUBS/sqlite3"
            """
    }

    /// Portable set-up: with SQLite missing and no apt-get, the script finds dnf and installs
    /// Fedora's package names with it, then checks SQLite again.
    @Test func installsWithDnfWhereThereIsNoAptGet() throws {
        let sandbox = try Sandbox()
        try sandbox.sudo()
        try sandbox.sqliteKnownOnceInstalled()
        try sandbox.stub("dnf", Sandbox.installSQLite)
        let run = try sandbox.ensureSystemPackages()
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "sourced\n")
        #expect(try sandbox.loggedCalls().filter { !$0.hasPrefix("sudo ") && !$0.hasPrefix("pkg-config ") }
                    == ["dnf install -y sqlite-devel sqlite"])
    }

    /// Debian, as CI runs it: the same packages as always, through apt-get, which waits for
    /// another apt or dpkg (unattended upgrades) to release its lock rather than failing.
    @Test func installsDebianPackagesWithAptGet() throws {
        let sandbox = try Sandbox()
        try sandbox.sudo()
        try sandbox.link("env", to: "/usr/bin/env")
        try sandbox.sqliteKnownOnceInstalled()
        try sandbox.stub("apt-get", "[ \"$3\" = update ] || { \(Sandbox.installSQLite.replacingOccurrences(of: "\n", with: "; ")); }")
        let run = try sandbox.ensureSystemPackages()
        #expect(run.status == 0, "\(run.errors)")
        let wait = "apt-get -o DPkg::Lock::Timeout=600"
        #expect(try sandbox.loggedCalls().filter { $0.hasPrefix("apt-get ") }
                    == ["\(wait) update -q", "\(wait) install -y -q --no-install-recommends libsqlite3-dev sqlite3"])
    }

    /// No install when SQLite is already usable, even with a package manager at hand.
    @Test func installsNothingWhenSQLiteIsUsable() throws {
        let sandbox = try Sandbox()
        try sandbox.stub("pkg-config")
        try sandbox.stub("sqlite3")
        try sandbox.stub("apt-get")
        try sandbox.stub("dnf")
        let run = try sandbox.ensureSystemPackages()
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "sourced\n")
        #expect(try sandbox.loggedCalls() == ["pkg-config --exists sqlite3"])
    }

    /// Without a known package manager the script stops with status 1 and names the packages
    /// for each distribution (rather than `apt-get: not found`, status 127).
    @Test func namesThePackagesWhereNoPackageManagerIsKnown() throws {
        let sandbox = try Sandbox()
        try sandbox.stub("pkg-config", "exit 1")
        let run = try sandbox.ensureSystemPackages()
        #expect(run.status == 1)
        #expect(run.output == "")
        for line in ["apt-get install libsqlite3-dev sqlite3", "dnf install sqlite-devel sqlite",
                     "yum install sqlite-devel sqlite", "zypper install sqlite3-devel sqlite3",
                     "apk add sqlite-dev sqlite", "pacman -S --needed sqlite"] {
            #expect(run.errors.contains(line), "\(line) missing from: \(run.errors)")
        }
        #expect(run.errors.contains("no known package manager"))
    }

    /// Quick start: the first run of Scripts/keychainctl builds keychainctl (and says so), not
    /// keychain-sync, and splits the program's debugging information off into
    /// <program>.debug; a run while the program is newer than the sources execs it without
    /// calling swift; a program linked anew by another
    /// build is split again without building; a source changed since makes the next run build,
    /// and so does the script itself changed since (its build options). The program is linked
    /// by ld.bfd with packed relative relocations when that linker knows them, else without;
    /// a change of options removes the package's stale Security module before the rebuild. A
    /// sync command builds keychain-sync too, one product a call, and splits it the same way.
    @Test func keychainctlBuildsOnlyWhenTheSourcesAreNewer() throws {
        let sandbox = try Sandbox()
        // A package of the script and one source, whose build the swift stub "does": it
        // compiles, with debugging information, a C program that prints its arguments.
        let package = sandbox.folder.appendingPathComponent("package")
        let source = package.appendingPathComponent("Sources/Tool/main.swift")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Scripts"), withIntermediateDirectories: true)
        for name in ["keychainctl", "ensure-system-packages.sh", "swift-build.sh"] {
            try FileManager.default.copyItem(at: Self.scripts.appendingPathComponent(name),
                                             to: package.appendingPathComponent("Scripts/\(name)"))
        }
        try "// swift-tools-version:6.1\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "print(1)\n".write(to: source, atomically: true, encoding: .utf8)
        let release = package.appendingPathComponent(".build/keychainctl/release").path
        let program = release + "/keychainctl"
        let programSource = sandbox.folder.appendingPathComponent("program.c")
        try """
            #include <stdio.h>
            int main(int argc, char **argv) {
                printf("ran");
                for (int i = 1; i < argc; i++) printf(" %s", argv[i]);
                printf("\\n");
                return 0;
            }
            """.write(to: programSource, atomically: true, encoding: .utf8)
        // Links the product a swift build call names last (`$product` in the stub).
        func link(_ product: String) -> String {
            "mkdir -p \"\(release)\" && \"$(command -v clang || command -v cc || command -v gcc)\" -g -o \"\(release)/\(product)\" \"\(programSource.path)\""
        }
        try sandbox.stub("swift", "for argument; do product=$argument; done; " + link("$product"))
        try sandbox.stub("pkg-config")
        // A GNU linker that packs relative relocations, as binutils 2.38 and later.
        try sandbox.stub("ld.bfd", "echo '  -z pack-relative-relocs     Pack relative relocations'")
        let path = "\(sandbox.stubs.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        let script = package.appendingPathComponent("Scripts/keychainctl").path
        let build = "swift build --package-path \(package.path) --scratch-path \(package.path)/.build/keychainctl -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors -Xlinker --no-export-dynamic -Xswiftc -use-ld=bfd -Xlinker -z -Xlinker pack-relative-relocs --product keychainctl"
        let both = [build]
        let debugInformation = Data(".debug_info".utf8)
        func swiftCalls() throws -> [String] { try sandbox.loggedCalls().filter { $0.hasPrefix("swift ") } }
        func programHasDebugInformation() throws -> Bool {
            try Data(contentsOf: URL(fileURLWithPath: program)).range(of: debugInformation) != nil
        }

        let first = try sandbox.bash([script, "find-generic-password", "-a", "A"], path: path)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output == "ran find-generic-password -a A\n")
        #expect(first.errors.contains("building keychainctl"))
        #expect(try swiftCalls() == both)
        #expect(try programHasDebugInformation() == false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: program + ".debug")).range(of: debugInformation) != nil)
        #expect(!FileManager.default.fileExists(atPath: release + "/keychain-sync"), "built only for a sync command")

        let second = try sandbox.bash([script, "find-generic-password", "-a", "B"], path: path)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output == "ran find-generic-password -a B\n")
        #expect(second.errors == "")
        #expect(try swiftCalls() == both)

        // Another script's build links the program anew, unsplit.
        #expect(try sandbox.bash(["-c", link("keychainctl")], path: path).status == 0)
        #expect(try programHasDebugInformation())
        let third = try sandbox.bash([script, "find-generic-password", "-a", "C"], path: path)
        #expect(third.output == "ran find-generic-password -a C\n")
        #expect(try swiftCalls() == both)
        #expect(try programHasDebugInformation() == false)

        let programDate = try #require(FileManager.default.attributesOfItem(atPath: program)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: programDate.addingTimeInterval(5)], ofItemAtPath: source.path)
        let fourth = try sandbox.bash([script, "find-generic-password", "-a", "D"], path: path)
        #expect(fourth.status == 0, "\(fourth.errors)")
        #expect(fourth.output == "ran find-generic-password -a D\n")
        #expect(try swiftCalls() == both + both)

        let rebuiltDate = try #require(FileManager.default.attributesOfItem(atPath: program)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: rebuiltDate.addingTimeInterval(5)], ofItemAtPath: script)
        let fifth = try sandbox.bash([script, "find-generic-password", "-a", "E"], path: path)
        #expect(fifth.status == 0, "\(fifth.errors)")
        #expect(fifth.output == "ran find-generic-password -a E\n")
        #expect(try swiftCalls() == both + both + both)

        // The same options each time: a module built before stays (a build only redoes what
        // changed). A linker without packed relocations changes them: gold links, unpacked,
        // and this package's Security module goes first, which swift-certificates would
        // otherwise import while every module is rebuilt, a cycle.
        #if arch(x86_64)
        let machine = "x86_64"
        #else
        let machine = "aarch64"
        #endif
        let securityModule = package.appendingPathComponent(".build/keychainctl/\(machine)-unknown-linux-gnu/release/Modules/Security.swiftmodule")
        try FileManager.default.createDirectory(at: securityModule.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("module".utf8).write(to: securityModule)
        try FileManager.default.setAttributes([.modificationDate: rebuiltDate.addingTimeInterval(10)], ofItemAtPath: source.path)
        let sixth = try sandbox.bash([script, "find-generic-password", "-a", "F"], path: path)
        #expect(sixth.status == 0, "\(sixth.errors)")
        #expect(FileManager.default.fileExists(atPath: securityModule.path))

        try sandbox.stub("ld.bfd", "echo '  -z relro     Create RELRO program header'")
        try FileManager.default.setAttributes([.modificationDate: rebuiltDate.addingTimeInterval(20)], ofItemAtPath: source.path)
        let seventh = try sandbox.bash([script, "find-generic-password", "-a", "G"], path: path)
        #expect(seventh.status == 0, "\(seventh.errors)")
        #expect(seventh.output == "ran find-generic-password -a G\n")
        let unpacked = build.replacingOccurrences(of: " -Xswiftc -use-ld=bfd -Xlinker -z -Xlinker pack-relative-relocs", with: "")
        #expect(try swiftCalls() == both + both + both + both + [unpacked])
        #expect(!FileManager.default.fileExists(atPath: securityModule.path))

        // A sync command while keychainctl is current and keychain-sync was never built: both
        // products are built, one a call, so that keychainctl sync finds its program; then
        // nothing more while both are current.
        // (The source's date goes back before the programs': the steps above set it ahead.)
        try FileManager.default.setAttributes([.modificationDate: programDate.addingTimeInterval(-60)], ofItemAtPath: source.path)
        try FileManager.default.setAttributes([.modificationDate: programDate.addingTimeInterval(-60)], ofItemAtPath: script)
        let eighth = try sandbox.bash([script, "sync", "status"], path: path)
        #expect(eighth.status == 0, "\(eighth.errors)")
        #expect(eighth.output == "ran sync status\n")
        #expect(eighth.errors.contains("building keychainctl and keychain-sync"))
        let syncPrograms = [unpacked, unpacked.replacingOccurrences(of: "--product keychainctl", with: "--product keychain-sync")]
        #expect(try swiftCalls() == both + both + both + both + [unpacked] + syncPrograms)
        for built in [program, release + "/keychain-sync"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: built + ".debug")).range(of: debugInformation) != nil, "\(built)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: built)).range(of: debugInformation) == nil, "\(built)")
        }
        let ninth = try sandbox.bash([script, "sync", "status"], path: path)
        #expect(ninth.output == "ran sync status\n")
        #expect(try swiftCalls() == both + both + both + both + [unpacked] + syncPrograms)

        // A build that stops at the X509 cycle with options unchanged (swift-certificates
        // compiled again for another reason): the module goes, and the build runs once more.
        let cycleOnce = sandbox.folder.appendingPathComponent("cycle-once")
        try Data().write(to: cycleOnce)
        try sandbox.stub("swift", """
            for argument; do product=$argument; done
            if [ -e "\(cycleOnce.path)" ]; then
                rm "\(cycleOnce.path)"
                echo "error: circular dependency between modules 'X509' and 'Security'"
                exit 1
            fi
            \(link("$product"))
            """)
        try Data("module".utf8).write(to: securityModule)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: source.path)
        let tenth = try sandbox.bash([script, "find-generic-password", "-a", "H"], path: path)
        #expect(tenth.status == 0, "\(tenth.errors)")
        #expect(tenth.output == "ran find-generic-password -a H\n")
        #expect(tenth.errors.contains("removing the compiled Security module"))
        #expect(!FileManager.default.fileExists(atPath: securityModule.path))
        #expect(try swiftCalls() == both + both + both + both + [unpacked] + syncPrograms + [unpacked, unpacked])
    }
}
