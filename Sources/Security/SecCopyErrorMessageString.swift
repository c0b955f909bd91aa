import Foundation
@_implementationOnly import KeychainCore

/// A human-readable message for a status code, as on Apple platforms; an unknown code
/// gives `OSStatus <n>`.
///
/// - Parameters:
///   - status: The status a Keychain Services function returned.
///   - reserved: Pass nil.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    NSString(string: KeychainStatus.message(for: status) ?? "OSStatus \(status)")
}
