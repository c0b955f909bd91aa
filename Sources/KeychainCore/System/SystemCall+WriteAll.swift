import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// Writes every byte of `bytes` to `descriptor`, again after a partial write: a pipe, a
    /// terminal or a full disk may take part of a write.
    ///
    /// A write that takes nothing of a non-empty buffer fails with EIO rather than being
    /// tried forever: write(2) does that only on a descriptor that can take no more.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, SystemCallError> {
        var written = 0
        while written < bytes.count {
            switch write(descriptor, from: UnsafeRawBufferPointer(rebasing: bytes[written...])) {
            case .success(0): return .failure(SystemCallError(code: EIO))
            case .success(let count): written += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Writes every byte of `bytes` (`Data`, a byte array) to `descriptor`, as the variant
    /// taking a buffer does.
    package static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> Result<Void, SystemCallError> {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }
}
