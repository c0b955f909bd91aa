import Foundation

/// Core Foundation's type identifier: what `CFGetTypeID` returns and each `Sec...GetTypeID`
/// function gives for its type.
public typealias CFTypeID = UInt

/// A type of this module that Core Foundation code tells apart by its type identifier.
package protocol CoreFoundationTyped: AnyObject {
    /// The identifier `CFGetTypeID` returns for instances, and the type's `...GetTypeID()`.
    static var coreFoundationTypeID: CFTypeID { get }
}
