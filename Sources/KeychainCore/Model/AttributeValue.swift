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
