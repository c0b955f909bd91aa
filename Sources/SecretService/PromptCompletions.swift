import KeychainCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How prompts asking on their own threads hand their outcome to the bus thread, which alone
/// talks to sd-bus: a list under a lock, and a pipe whose read end the bus loop polls beside
/// the bus, so that an outcome wakes it.
final class PromptCompletions: Sendable {
    struct Completion: Sendable {
        let prompt: UInt64
        let outcome: PromptOutcome
        /// The keychain a CreateCollection prompt made, when accepted.
        var createdCollection: String? = nil
    }

    private let completed = Mutex<[Completion]>([])
    /// The pipe's ends: the bus loop polls `wakeDescriptor`.
    let wakeDescriptor: Int32
    private let writeEnd: Int32

    init() throws(StartFailure) {
        var ends: [Int32] = [-1, -1]
        guard ChildProgram.makePipe(&ends) == 0 else {
            throw StartFailure("no pipe for the prompts: \(String(cString: strerror(errno)))")
        }
        // Neither end ever blocks: a full pipe already holds a wake-up.
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        wakeDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(writeEnd)
    }

    /// Hands over an outcome and wakes the bus loop; from any thread.
    func post(_ completion: Completion) {
        completed.withLock { $0.append(completion) }
        // A full pipe (EAGAIN) already holds a wake-up, so a failure needs no retry.
        _ = withUnsafeBytes(of: UInt8(1)) { SystemCall.write(writeEnd, from: $0) }
    }

    /// The outcomes handed over since the last call; on the bus thread, when woken.
    func take() -> [Completion] {
        var bytes = [UInt8](repeating: 0, count: 64)
        // Until the pipe is empty (EAGAIN: its read end does not block) or closed.
        while case .success(let count) = bytes.withUnsafeMutableBytes({ SystemCall.read(wakeDescriptor, into: $0) }),
              count > 0 {}
        return completed.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
