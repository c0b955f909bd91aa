import Foundation

/// An attribute value as the caller gave it.
///
/// The form is kept so that a value comes back in the caller's type (a Data account comes
/// back as Data); comparisons use ``Attribute/canonicalBytes(of:)`` instead.
package enum AttributeValue: Sendable, Hashable {
    case string(String)
    case data(Data)
    case number(Int64)
    case bool(Bool)
    case date(Date)
}

extension [String: AttributeValue] {
    /// An empty dictionary of attributes with room for `count`: made here, where its types
    /// are known, as another module's call of `init(minimumCapacity:)` runs the generic
    /// code, which looks up the storage's type every time (over half of its cost).
    package static func withCapacity(_ count: Int) -> [String: AttributeValue] {
        Self(minimumCapacity: count)
    }
}
