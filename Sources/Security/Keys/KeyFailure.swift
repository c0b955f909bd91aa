import Foundation
@_implementationOnly import KeychainCore

/// Why a SecKey call failed: a status and a message, handed to the caller as a `CFError` of
/// the `OSStatus` domain, as Apple's SecKey functions do. Messages never hold key material.
struct KeyFailure: Error, Sendable {
    let status: OSStatus
    let message: String

    init(_ status: KeychainStatus, _ message: String) {
        self.status = status.code
        self.message = message
    }

    /// The error Apple's functions return: domain `NSOSStatusErrorDomain`, the status as
    /// code, the message as its description.
    var error: CFError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status),
                userInfo: [NSDebugDescriptionErrorKey: message, NSLocalizedDescriptionKey: message])
    }

    /// Stores the error where the caller asked for it (a retained reference, which the caller
    /// takes with `takeRetainedValue()`), as the `CFErrorRef *` out-parameters do.
    func report(to error: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
        error?.pointee = Unmanaged.passRetained(self.error)
    }
}

extension KeyFailure {
    /// Runs a SecKey operation for an Apple-style function: its value, or nil with the error
    /// reported to the caller's out-parameter.
    static func returning<Value>(errorTo out: UnsafeMutablePointer<Unmanaged<CFError>?>?,
                                 _ body: () throws(KeyFailure) -> Value) -> Value? {
        do {
            return try body()
        } catch {
            error.report(to: out)
            return nil
        }
    }
}
