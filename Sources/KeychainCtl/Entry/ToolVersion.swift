/// keychainctl's version, written here alone: `--version` prints it and the manual page is
/// generated with it. It follows the package's releases (CHANGELOG.md); `-dev` marks a build
/// from a branch between them.
package enum ToolVersion {
    package static let current = "0.1.0-dev"
}
