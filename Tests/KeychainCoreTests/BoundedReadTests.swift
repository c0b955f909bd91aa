import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainCore
import Testing

/// The package's one bounded read, on real pipes and devices: no input reads past its
/// bound, a complete input ends the read, and a failure carries its errno.
@Suite struct BoundedReadTests {
    @Test func anEndlessInputReadsNoFurtherThanItsBound() throws {
        let fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let read = try SystemCall.read(fd, atMost: 100_001).get()
        #expect(read.count == 100_001)
        #expect(read.allSatisfy { $0 == 0 })
    }

    @Test func aShortInputReadsToItsEnd() throws {
        let ends = try TestPipe.ends()
        defer { close(ends.read) }
        #expect(TestPipe.failure(SystemCall.writeAll(ends.write, Data("one\ntwo".utf8))) == nil)
        close(ends.write)
        #expect(try SystemCall.read(ends.read, atMost: 1024).get() == Data("one\ntwo".utf8))
    }

    @Test func aCompleteInputEndsTheReadWithoutWaitingForTheEnd() throws {
        let ends = try TestPipe.ends()
        defer { close(ends.read); close(ends.write) }
        // The write end stays open; the read end does not block, so a read that went on
        // past the complete input would fail with EAGAIN instead of hanging the test.
        #expect(fcntl(ends.read, F_SETFL, fcntl(ends.read, F_GETFL) | O_NONBLOCK) == 0)
        #expect(TestPipe.failure(SystemCall.writeAll(ends.write, Data("line\n".utf8))) == nil)
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = buffer.withUnsafeMutableBytes { buffer in
            SystemCall.fill(buffer, from: ends.read) { filled, added in filled[added].contains(UInt8(ascii: "\n")) }
        }
        #expect(read.count == 5)
        #expect(read.failure == nil)
        #expect(Array(buffer[..<5]) == Array("line\n".utf8))
        // Without a completion check the same read goes on and meets the empty pipe.
        #expect(TestPipe.failure(SystemCall.writeAll(ends.write, Data("more".utf8))) == nil)
        #expect(SystemCall.read(ends.read, atMost: 64) == .failure(SystemCallError(code: EAGAIN)))
    }

    @Test func aFailedReadCarriesItsErrno() throws {
        let ends = try TestPipe.ends()
        defer { close(ends.read); close(ends.write) }
        #expect(SystemCall.read(ends.write, atMost: 16) == .failure(SystemCallError(code: EBADF)))
    }
}
