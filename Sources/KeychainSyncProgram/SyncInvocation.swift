import Foundation
import KeychainCtlCommands
import KeychainSync
import Logging
import Security
#if canImport(Glibc)
import Glibc
#endif

/// What the sync subcommands share: the keychain's files, the logger, running the async work
/// with SIGINT and SIGTERM cancelling it, and failures as keychainctl reports them (the user
/// typed `keychainctl sync ...`).
enum SyncInvocation {
    /// The keychain `option` names (as every keychainctl command takes it), opened.
    static func keychain(_ option: SyncOptions) throws -> SyncKeychain {
        let location = KeychainLocation(argument: option.keychain)
        try location.open()
        do {
            return try SyncKeychain.open(databasePath: location.path)
        } catch {
            throw toolFailure(error, command: "")
        }
    }

    static var logger: Logger {
        var logger = Logger(label: "keychainctl.sync")
        logger.logLevel = .notice
        if let level = ProcessInfo.processInfo.environment["KEYCHAINCTL_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) {
            logger.logLevel = level
        }
        return logger
    }

    /// Runs `work` to its end and returns its result, turning a sync failure into keychainctl's
    /// message and exit status. SIGINT and SIGTERM cancel it, so that `sync run` and a waiting
    /// `sync join` end cleanly: `work` runs as a task of its own, which the signal handlers can
    /// cancel, and this awaits it.
    static func run<T: Sendable>(_ command: String, _ work: @escaping @Sendable () async throws(SyncFailure) -> T) async throws -> T {
        let task = Task { () async -> Result<T, SyncFailure> in
            do throws(SyncFailure) {
                return .success(try await work())
            } catch {
                return .failure(error)
            }
        }
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            sources.append(source)
        }
        let outcome = await task.value
        sources.forEach { $0.cancel() }
        switch outcome {
        case .success(let value):
            return value
        case .failure(let failure):
            throw toolFailure(failure, command: command)
        }
    }

    static func toolFailure(_ failure: SyncFailure, command: String) -> ToolFailure {
        let operation = command.isEmpty ? "sync" : "sync \(command)"
        if let status = failure.keychainStatus {
            return .status(status, during: operation, reason: failure.description)
        }
        switch failure {
        case .usage(let text):
            return ToolFailure(message: "keychainctl: \(operation): \(text)", exitStatus: ExitStatus.failure.code)
        default:
            return .other("\(operation): \(failure)")
        }
    }

    /// The server's address: the option, else `KEYCHAIN_SYNC_SERVER`, which keeps a password
    /// out of the process list.
    static func serverAddress(_ option: String?) throws -> String {
        if let option { return option }
        if let address = ProcessInfo.processInfo.environment["KEYCHAIN_SYNC_SERVER"], !address.isEmpty { return address }
        throw ToolFailure(message: "keychainctl: sync: name the server with --server <url> or KEYCHAIN_SYNC_SERVER",
                          exitStatus: ExitStatus.usage.code)
    }

    /// The program the systemd unit runs `sync run` with: the keychainctl installed beside this
    /// program, the command users know, which hands `sync` over to this program; else this
    /// program itself, as the kernel knows it, which takes the same arguments.
    static var executablePath: String {
        let this = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let keychainctl = URL(fileURLWithPath: this).deletingLastPathComponent().appendingPathComponent("keychainctl").path
        return FileManager.default.isExecutableFile(atPath: keychainctl) ? keychainctl : this
    }

    /// This machine's name, the default name of its device.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "linux" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "linux" : name
    }
}
