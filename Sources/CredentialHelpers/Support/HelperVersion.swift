/// The helpers' version, which follows the package's releases (CHANGELOG.md) as
/// keychainctl's does; `-dev` marks a build from a branch between them.
package enum HelperVersion {
    package static let current = "0.1.0-dev"
}
