import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A configuration file a program of this package writes for the user's session (a D-Bus
/// activation file, a systemd user unit): recognised as its own by a first line, `marker`, and
/// otherwise left alone; replaced whole (written beside and renamed over), so that a reader sees
/// the old file or the new one, never half of either.
package struct MarkedConfigurationFile: Sendable {
    package let path: String
    package let marker: String

    package init(path: String, marker: String) {
        self.path = path
        self.marker = marker
    }

    /// A plain reason, for the caller's error.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The folder `variable` names when absolute, else `relative` under HOME: how the XDG base
    /// directories are found.
    package static func folder(_ variable: String, default relative: String,
                               environment: [String: String]) throws(Failure) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw Failure(description: "neither \(variable) nor HOME names an absolute folder to install into")
        }
        return home + "/" + relative
    }

    /// Whether the file is missing, or a regular file (not a link) starting with the marker.
    package func isOursOrAbsent() throws(Failure) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return true }
            // ELOOP: a symbolic link, which this package never writes.
            if errno == ELOOP { return false }
            throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var information = stat()
        guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else { return false }
        let expected = Array((marker + "\n").utf8)
        var start = [UInt8](repeating: 0, count: expected.count)
        // A failed read leaves the start short, which is not the marker.
        let count = start.withUnsafeMutableBytes { SystemCall.fill($0, from: descriptor).count }
        return count == expected.count && start == expected
    }

    /// Writes `body` after the marker line to a new file beside the path and renames it over
    /// the path (``PrivateFile/install(_:at:role:replacing:mode:)``), readable by all: nothing
    /// in it is secret. Missing folders are made (0755); existing ones are left as they are.
    package func write(_ body: String) throws(Failure) {
        let text = marker + "\n" + body
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw Failure(description: "cannot make the folder \(folder): \(error.localizedDescription)")
        }
        do {
            try PrivateFile.install(Data(text.utf8), at: path, role: "configuration file", replacing: true, mode: 0o644)
        } catch .notAvailable(let message) {
            throw Failure(description: message)
        } catch {
            throw Failure(description: "cannot write \(path): \(error)")
        }
    }
}
