// The fuzz targets as one program; KEYCHAIN_FUZZ_TARGET names the target (query-parser,
// record-decoder, archive-reader, keychainctl or pkcs12-reader). Built with -DLIBFUZZER and
// -sanitize=fuzzer (Scripts/libfuzz), it is a libFuzzer binary; built otherwise, it replays
// the inputs it is given, files or folders of files, as the libFuzzer binary would:
//
//   KEYCHAIN_FUZZ_TARGET=keychainctl setsid keychain-libfuzz Tests/LibFuzzCorpus/keychainctl </dev/null
//
// Either way it runs in FuzzSandbox's scratch folder and needs no terminal (setsid) and
// standard input that is not one.
import Foundation
import KeychainFuzzTargets
#if LIBFUZZER
import CLibFuzzer
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The target KEYCHAIN_FUZZ_TARGET names, with the sandbox entered; otherwise the process
/// ends with status 2 and why.
private func startTarget() -> FuzzTarget {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    guard let name = ProcessInfo.processInfo.environment["KEYCHAIN_FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
        fail("set KEYCHAIN_FUZZ_TARGET to one of \(names)")
    }
    do {
        try FuzzSandbox.enter()
    } catch {
        fail("\(error)")
    }
    return target
}

private func fail(_ message: String) -> Never {
    let line = Array("keychain-libfuzz: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

#if LIBFUZZER
nonisolated(unsafe) private var target: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    target = startTarget()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target else { fail("LLVMFuzzerInitialize did not run") }
    target.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// SwiftPM makes an executable's `main` its entry point (`--defsym main=KeychainLibFuzz_main`),
/// so libFuzzer's own `main` is not linked: this one hands over to libFuzzer's driver.
@main
enum LibFuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
    }
}
#else
@main
enum LibFuzzReplay {
    static func main() {
        // Paths are read before the sandbox changes the working directory.
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var files: [URL] = []
        for argument in CommandLine.arguments.dropFirst() {
            let path = URL(fileURLWithPath: argument, relativeTo: current).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else { fail("no such file: \(argument)") }
            guard isFolder.boolValue else { files.append(path); continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path.path) else { fail("cannot list \(argument)") }
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { path.appendingPathComponent($0) }
        }
        let target = startTarget()
        for file in files {
            guard let bytes = try? Data(contentsOf: file) else { fail("cannot read \(file.path)") }
            bytes.withUnsafeBytes { target.run($0) }
        }
        print("replayed \(files.count) inputs through \(target.rawValue)")
    }
}
#endif
