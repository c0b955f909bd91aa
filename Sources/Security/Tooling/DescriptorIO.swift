import Foundation
@_implementationOnly import KeychainCore

/// Reads and writes on descriptors for this package's tools (keychainctl, the credential
/// helpers), which are written against this module and not the core: the core's one
/// implementation of each loop (``SystemCall`` there), not a copy of it. Errors are errno
/// values, so that its users need not load the core.
package enum DescriptorIO {
    /// Writes every byte of `data` to `descriptor`, again after an interruption or a partial
    /// write; the errno of a failure, nil on success.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        switch SystemCall.writeAll(descriptor, data) {
        case .success: nil
        case .failure(let error): error.code
        }
    }
}
