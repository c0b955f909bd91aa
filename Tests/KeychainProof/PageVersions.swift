import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One version of one database page, as a file holds it: the page in the database file, or
/// a frame of the write-ahead log.
public struct PageVersion: Sendable {
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        case database
        /// Frame `frame` (from 0) of the log, whatever its salt, checksum or commit state:
        /// frames past the last commit, or left from before the log restarted, still hold
        /// bytes an attacker reads.
        case log(frame: Int)

        public var description: String {
            switch self {
            case .database: "database"
            case .log(let frame): "WAL frame \(frame)"
            }
        }
    }

    public let origin: Origin
    /// The page's number (from 1) in the database.
    public let page: Int
    public let bytes: [UInt8]
    /// Where this version stands in time: 0 for the database file, then the frames in the
    /// order of the log, so that a page's overflow chain is read as it was when written.
    public let order: Int
    /// The order of the frame that committed this version's transaction (the first commit
    /// frame at or after it), or `order` when none follows.
    public let committedAt: Int

    public var location: String { "\(origin), page \(page)" }
}

/// Every page version in a keychain's database file and its write-ahead log, read from the
/// files as bytes (SQLite's file format, sections 1.3 and 4): the database is pages of the
/// size its header gives; the log is a 32-byte header, then frames of a 24-byte header and
/// one page.
public struct PageVersions: Sendable {
    public let pageSize: Int
    /// The page size less the bytes reserved at the end of each page (header byte 20).
    public let usableSize: Int
    public let versions: [PageVersion]

    public init(database: URL) throws {
        let main = try FileBytes.read(database)
        let log = (try? FileBytes.read(URL(fileURLWithPath: database.path + "-wal"))) ?? []
        var pageSize = 0
        var reserved = 0
        if main.count >= 100, Array(main[0..<16]) == Array("SQLite format 3\0".utf8) {
            let size = Int(main[16]) << 8 | Int(main[17])
            pageSize = size == 1 ? 65536 : size
            reserved = Int(main[20])
        }
        if pageSize == 0, log.count >= 32 {
            pageSize = Int(FileBytes.bigEndian32(log, at: 8))
        }
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw ProofFailure("\(database.lastPathComponent) and its log give no valid page size")
        }
        self.pageSize = pageSize
        usableSize = pageSize - reserved
        var versions: [PageVersion] = []
        for index in 0..<(main.count / pageSize) {
            let start = index * pageSize
            versions.append(PageVersion(origin: .database, page: index + 1,
                                        bytes: Array(main[start..<start + pageSize]), order: 0, committedAt: 0))
        }
        // Frames: read them all, to the end of the file, as an attacker would.
        var frames: [(page: Int, commit: Bool, bytes: [UInt8])] = []
        var offset = 32
        while offset + 24 + pageSize <= log.count {
            let page = Int(FileBytes.bigEndian32(log, at: offset))
            let commit = FileBytes.bigEndian32(log, at: offset + 4) != 0
            frames.append((page, commit, Array(log[offset + 24..<offset + 24 + pageSize])))
            offset += 24 + pageSize
        }
        var nextCommit = frames.count
        var committedAt = [Int](repeating: 0, count: frames.count)
        for index in frames.indices.reversed() {
            if frames[index].commit { nextCommit = index }
            committedAt[index] = (nextCommit < frames.count ? nextCommit : index) + 1
        }
        for (index, frame) in frames.enumerated() where frame.page > 0 {
            versions.append(PageVersion(origin: .log(frame: index), page: frame.page, bytes: frame.bytes,
                                        order: index + 1, committedAt: committedAt[index]))
        }
        self.versions = versions
    }

    /// The version of `page` an overflow chain read from `version` continues into: the
    /// latest one written no later than `version`'s transaction committed.
    func continuation(page: Int, of version: PageVersion) -> PageVersion? {
        versions.last { $0.page == page && $0.order <= version.committedAt }
    }
}

/// Whole files as bytes, read with POSIX calls whose errors are thrown, without following a
/// link at the last component.
public enum FileBytes {
    public static func read(_ url: URL) throws -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw ProofFailure("cannot open \(url.lastPathComponent): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw ProofFailure("cannot read \(url.lastPathComponent): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
