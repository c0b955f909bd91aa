import Foundation
import KeychainCore
#if canImport(Glibc)
import Glibc
#endif

/// The passwords pam_keychain writes on the helper's standard input: each followed by a NUL
/// byte, then the end of input. Read with a bound, so that no input can make the helper
/// grow without limit, and zeroed by ``wipe()`` when done.
struct HelperInput {
    /// The most the module sends: two passwords of 4096 bytes and their NULs.
    static let limit = 2 * 4096 + 2

    private(set) var passwords: [[UInt8]]

    enum Failure: Error, CustomStringConvertible {
        case tooLong
        case unreadable(Int32)
        case malformed

        var description: String {
            switch self {
            case .tooLong: "more input than two passwords of 4096 bytes"
            case .unreadable(let error): "standard input cannot be read: \(String(cString: strerror(error)))"
            case .malformed: "the input is not NUL-terminated passwords"
            }
        }
    }

    /// Reads standard input to its end and splits it into `count` passwords.
    static func read(count: Int) throws(Failure) -> HelperInput {
        // One byte more than the limit tells an input past it.
        var input: Data
        switch SystemCall.read(STDIN_FILENO, atMost: limit + 1) {
        case .failure(let error): throw .unreadable(error.code)
        case .success(let read): input = read
        }
        var bytes = [UInt8](input)
        input.resetBytes(in: 0..<input.count)
        defer { wipe(&bytes) }
        guard bytes.count <= limit else { throw .tooLong }
        guard let last = bytes.last, last == 0 else { throw .malformed }
        let parts = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
        guard parts.count == count else {
            var parts = parts
            for index in parts.indices { wipe(&parts[index]) }
            throw .malformed
        }
        return HelperInput(passwords: parts)
    }

    /// Zeroes the passwords.
    mutating func wipe() {
        for index in passwords.indices { Self.wipe(&passwords[index]) }
    }

    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let start = buffer.baseAddress { explicit_bzero(start, buffer.count) }
        }
    }
}
