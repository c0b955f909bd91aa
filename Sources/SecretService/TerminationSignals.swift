import Foundation
import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP (systemd stopping the user's services at the end of the session,
/// Ctrl-C, a closed terminal) end serving through ``SecretServiceProvider/run()``'s return,
/// so that the session collection's secrets are zeroed before the process ends rather than
/// left in its memory. The handler only writes the signal's number to a pipe, which the
/// serving loop polls beside the bus. A signal ignored when the provider started
/// (`nohup keychain-secret-service`) stays ignored.
enum TerminationSignals {
    static let numbers = [SIGTERM, SIGINT, SIGHUP]

    /// The pipe's write end, for the handler, which can capture nothing. Written once, before
    /// the handlers are installed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers; the pipe's read end, or nil when no pipe could be made (the
    /// signals then end the process as before).
    static func install() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard ChildProgram.makePipe(&ends) == 0 else { return nil }
        // Neither end ever blocks: a full pipe already holds a signal to stop for.
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        writeEnd = ends[1]
        for number in numbers {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0,
                  unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                      != unsafeBitCast(SIG_IGN, to: Int.self) else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignals.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        return ends[0]
    }

    /// The signal that arrived on the pipe's read end `descriptor`, if any.
    static func received(on descriptor: Int32) -> Int32? {
        var byte: UInt8 = 0
        return read(descriptor, &byte, 1) == 1 ? Int32(byte) : nil
    }
}
