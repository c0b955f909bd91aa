import Foundation

/// What ``KeychainStore/exportArchive(password:kdf:)`` made: the archive of every item it
/// could open, and the items it had to leave out.
package struct ArchiveExport: Sendable {
    /// The sealed archive; it holds every exported item but the ``skipped`` ones.
    package let archive: Data
    /// The items that failed to open (damaged or altered rows), in insertion order. A
    /// caller should report them: the archive is not a complete backup when any are.
    package let skipped: [UnreadableItem]
}
