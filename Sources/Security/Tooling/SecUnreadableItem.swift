/// An item that failed to open (errSecDecode: its row damaged, or altered by someone with
/// the files), named by what its row still says in the clear: row, class, protection
/// class and synchronizable flag, never a sealed value.
package struct SecUnreadableItem: Sendable, Hashable, CustomStringConvertible {
    /// `row 3: class genp, protection ak, not synchronizable`.
    package let description: String
}
