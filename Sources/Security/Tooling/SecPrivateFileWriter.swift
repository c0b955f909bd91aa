import Foundation
@_implementationOnly import KeychainCore

/// Writes a file only its owner may read, as the library writes its own: 0600, written and
/// synced under a temporary name, then renamed over `path` (a symbolic link there is replaced,
/// never followed), so a reader or a power cut sees the old file or the whole new one. For
/// this package's tools (exported archives, certificates and identities).
package enum SecPrivateFileWriter {
    package static func write(_ data: Data, to path: String) throws(SecKeychainFailure) {
        do {
            try PrivateFile.install(data, at: path, role: "file", replacing: true)
        } catch {
            throw SecKeychainFailure(error)
        }
    }
}
