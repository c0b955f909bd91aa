import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainCore
import Testing

/// The package's one write-until-done loop, on real pipes: every byte arrives in order, and
/// a failure carries its errno.
@Suite struct WriteAllTests {
    @Test func writeAllDeliversMoreThanAPipeHoldsInOrder() throws {
        let ends = try TestPipe.ends()
        // Sixteen times a pipe's default capacity: the writer must wait for the reader, and
        // the reader, Foundation's FileHandle on a thread of its own (not the tests' shared
        // pool, which a blocked reader could starve), is independent of the code under test.
        let sent = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let received = ReceivedBytes()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let data = FileHandle(fileDescriptor: ends.read, closeOnDealloc: true).readDataToEndOfFile()
            received.data = data
            finished.signal()
        }.start()
        let written = SystemCall.writeAll(ends.write, sent)
        close(ends.write)
        finished.wait()
        #expect(TestPipe.failure(written) == nil)
        #expect(received.data == sent)
    }

    @Test func writeAllReportsTheErrnoOfAFailure() throws {
        let ends = try TestPipe.ends()
        close(ends.write)
        defer { close(ends.read) }
        // Writing to the read end of a pipe: EBADF, reported rather than tried again.
        #expect(TestPipe.failure(SystemCall.writeAll(ends.read, Data("x".utf8))) == EBADF)
        // Nothing to write is no call at all, and no failure.
        #expect(TestPipe.failure(SystemCall.writeAll(ends.read, Data())) == nil)
    }
}

/// What the reader thread read: written before it signals, read after the wait.
private final class ReceivedBytes: @unchecked Sendable {
    var data = Data()
}
