import Foundation

/// Foundation's pointer to an optional error, which Foundation declares on Apple platforms
/// only: ``LAContext/canEvaluatePolicy(_:error:)`` takes one, so that Apple's calling code
/// (`var error: NSError?; context.canEvaluatePolicy(policy, error: &error)`) compiles unchanged.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
