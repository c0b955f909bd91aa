import Foundation
import CSDBus
#if canImport(Glibc)
import Glibc
#endif

/// A secret as the API carries it, the struct `(oayays)`: the session it travels in, the
/// algorithm's parameters (none for `plain`), the value, and its content type.
///
/// The value is held in memory the provider zeroes when done (``zero()``); the D-Bus
/// messages that carry it are marked sensitive, so sd-bus zeroes them when it frees them.
struct TransferredSecret {
    let session: String
    var value: [UInt8]
    let contentType: String

    /// What every secret is returned as: the keychain keeps no content type.
    static let storedContentType = "text/plain"

    /// Reads the struct from `reader`, checking the value's size against ``Limits``.
    init(reading reader: MessageReader) throws(BusFailure) {
        _ = sd_bus_message_sensitive(reader.message)
        try reader.enter("r", "oayays")
        session = try reader.objectPath()
        let parameters = try reader.bytes(limit: 1024, naming: "the secret's parameters")
        guard parameters.isEmpty else {
            throw .invalidArguments("a plain session's secret takes no parameters")
        }
        value = try reader.bytes(limit: Limits.secretBytes, naming: "the secret")
        contentType = try reader.string()
        try reader.exit()
        guard contentType.utf8.count <= Limits.stringBytes else { throw .invalidArguments("the content type is too long") }
    }

    /// Writes `value` as the struct, in `session`, to `writer`.
    static func write(_ value: Data, session: String, to writer: MessageWriter) throws(BusFailure) {
        try writer.open("r", "oayays")
        try writer.objectPath(session)
        try writer.bytes(Data())
        try writer.bytes(value)
        try writer.string(storedContentType)
        try writer.close()
    }

    /// The value as `Data` for a keychain call, which the caller zeroes after the call.
    var data: Data { Data(value) }

    mutating func zero() {
        value.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { explicit_bzero(base, buffer.count) }
        }
    }
}

extension Data {
    /// Overwrites these bytes with zeros in place: for a copy of a secret the provider made.
    mutating func zero() {
        resetBytes(in: startIndex..<endIndex)
    }
}
