// Apple-platform code of another package, guarded as such code is. CoexistenceTests builds
// this target after `Security` is in the build folder: `canImport(Security)` is then true and
// the code must compile against this module without the module maps of its implementation.
#if canImport(Security)
import Security

/// Random bytes from `SecRandomCopyBytes`, or nil when it fails.
public func randomBytes(count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    return SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes) == errSecSuccess ? bytes : nil
}
#else
#error("built after Security, this target should see it")
#endif
