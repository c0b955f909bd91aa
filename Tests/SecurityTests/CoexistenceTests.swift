import Foundation
import Testing
import TestSupport
import TestTags

/// Rule: a package that depends on this `Security` and on packages with `#if canImport(Security)`
/// code (swift-certificates, and jwt-kit on top of it) builds from a clean build folder and
/// runs; code of such packages that sees this module compiles against it without the module
/// maps of its implementation (the core's C modules: `_AtomicsShims`, SQLite, the keyring).
/// The same package proves the README to a new user: its manifest's product lines and each
/// of its Swift samples, pasted as a program, build and print what the README says.
///
/// Builds Tests/CoexistencePackage in a scratch folder with the toolchain on `PATH`, as a
/// user's package: minutes, once per run, so it is tagged slow.
@Suite("Coexistence with canImport(Security) packages", .tags(.slow), .serialized)
struct CoexistenceTests {
    /// The checkout: three folders up from this file.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("Security, X509 and JWTKit build from a clean folder; certificates convert both ways; canImport code compiles against Security; the README's samples build in a new package and print what they say",
          .timeLimit(.minutes(60)))
    func cleanBuildBesideCanImportSecurityPackages() throws {
        let folder = TestScratch.folder("coexistence")
        let package = folder.appendingPathComponent("CoexistencePackage")
        let buildFolder = folder.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.root.appendingPathComponent("Tests/CoexistencePackage"), to: package)
        // The manifest names this checkout as ../swift-keychain.
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("swift-keychain"), withDestinationURL: Self.root)
        // The versions this checkout resolved, when it has them, so that both build the same.
        let resolved = Self.root.appendingPathComponent("Package.resolved")
        if FileManager.default.fileExists(atPath: resolved.path) {
            try FileManager.default.copyItem(at: resolved, to: package.appendingPathComponent("Package.resolved"))
        }

        // The README's manifest names the products a new user depends on: the README sample
        // target depends on exactly those.
        let readme = try DocumentationBlocks(contentsOf: Self.root.appendingPathComponent("README.md")).swift.map(\.text)
        let manifest = readme.first { $0.hasPrefix("// Package.swift") } ?? ""
        let products = manifest.split(separator: "\n").filter { $0.contains(".product(") && $0.contains("\"swift-keychain\"") }
        #expect(products.count >= 2, "the README's manifest depends on Keychain and Security:\n\(manifest)")
        let manifestFile = package.appendingPathComponent("Package.swift")
        let coexistenceManifest = try String(contentsOf: manifestFile, encoding: .utf8)
        #expect(coexistenceManifest.contains("// README products"))
        try coexistenceManifest.replacingOccurrences(of: "// README products", with: products.joined(separator: "\n"))
            .write(to: manifestFile, atomically: true, encoding: .utf8)

        // 1. From a clean build folder: swift-certificates is compiled before Security (which
        // depends on it), the program after both.
        let build = try swift(["build", "--package-path", package.path, "--scratch-path", buildFolder.path,
                               "--product", "App"], in: folder)
        #expect(build.status == 0, "swift build --product App failed:\n\(build.tail)")
        #expect(!build.output.contains("missing required module"), "\(build.tail)")
        guard build.status == 0 else { return }

        let run = try SpawnedProcess.runToEnd(
            buildFolder.appendingPathComponent("debug/App").path, [],
            environment: ProcessInfo.processInfo.environment, outputIn: folder)
        #expect(run.status == 0, "the program failed: \(run.output)\(run.errors)")
        #expect(run.output.contains("coexistence: ok"), "\(run.output)\(run.errors)")

        // 2. A library without a dependency on Security, built once Security is in the build
        // folder: its canImport(Security) code imports this module (or #error stops it).
        let appleOnly = try swift(["build", "--package-path", package.path, "--scratch-path", buildFolder.path,
                                   "--target", "AppleOnlyCode"], in: folder)
        #expect(appleOnly.status == 0, "canImport(Security) code did not compile against Security:\n\(appleOnly.tail)")

        // 3. Each Swift sample of the README, pasted as a new package's main.swift, builds
        // and prints what its comments say, twice on one keychain (the second run finds the
        // items the first left).
        let samples = readme.filter { !$0.hasPrefix("// Package.swift") }
        #expect(samples.count >= 2)
        let homes = folder.appendingPathComponent("readme-homes")
        for (index, sample) in samples.enumerated() {
            try (sample + "\n").write(to: package.appendingPathComponent("Sources/ReadmeSample/main.swift"),
                                     atomically: true, encoding: .utf8)
            let built = try swift(["build", "--package-path", package.path, "--scratch-path", buildFolder.path,
                                   "--product", "ReadmeSample"], in: folder)
            #expect(built.status == 0, "README sample \(index + 1) does not compile:\n\(built.tail)")
            guard built.status == 0 else { continue }
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = homes.appendingPathComponent("\(index)").path
            environment["KEYCHAIN_NO_KERNEL_KEYRING"] = "1"
            environment["KEYCHAIN_ACCESS_GROUPS"] = nil
            for round in 1...2 {
                let run = try SpawnedProcess.runToEnd(
                    buildFolder.appendingPathComponent("debug/ReadmeSample").path, [],
                    environment: environment, outputIn: folder)
                #expect(run.status == 0, "README sample \(index + 1), run \(round): \(run.errors)")
                #expect(run.output.split(separator: "\n").map(String.init) == DocumentationBlocks.expectedOutput(of: sample),
                        "README sample \(index + 1), run \(round): \(run.output)")
            }
        }
    }

    /// The outcome of a `swift` command: its status and output (standard output and errors).
    struct Outcome {
        let status: Int32
        let output: String
        /// The last lines, for a failure's message.
        var tail: String { output.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n") }
    }

    /// Runs the `swift` on `PATH` (the toolchain running these tests) with `arguments`.
    func swift(_ arguments: [String], in folder: URL) throws -> Outcome {
        let outcome = try SpawnedProcess.runToEnd(
            "/usr/bin/env", ["swift"] + arguments,
            environment: ProcessInfo.processInfo.environment, outputIn: folder)
        return Outcome(status: outcome.status, output: outcome.output + outcome.errors)
    }
}
