import Foundation

/// What an archive export made: the sealed archive of every item it could open, and the
/// items it had to leave out, which a caller must report (the archive is then not a
/// complete backup).
package struct SecArchiveExport: Sendable {
    /// The sealed archive.
    package let archive: Data
    /// The items that failed to open, in insertion order.
    package let skipped: [SecUnreadableItem]
}
