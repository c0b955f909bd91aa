import Foundation
import CSDBus
#if canImport(Glibc)
import Glibc
#endif

/// A secret as the API carries it, the struct `(oayays)`: the session it travels in, the
/// transport's parameters (an IV, or none for `plain`), the value as sent, and its content
/// type.
///
/// The provider zeroes its copies of a secret when done; the D-Bus messages that carry one
/// are marked sensitive, so sd-bus zeroes them when it frees them.
struct TransferredSecret {
    let session: String
    let parameters: [UInt8]
    var value: [UInt8]
    let contentType: String

    /// Reads the struct from `reader`, bounded: the value by ``Limits/secretBytes`` and a
    /// block of padding.
    init(reading reader: MessageReader) throws(BusFailure) {
        _ = sd_bus_message_sensitive(reader.message)
        try reader.enter("r", "oayays")
        session = try reader.objectPath()
        parameters = try reader.bytes(limit: 64, naming: "the secret's parameters")
        value = try reader.bytes(limit: Limits.secretBytes + 16, naming: "the secret")
        contentType = try reader.string()
        try reader.exit()
        guard contentType.utf8.count <= Limits.stringBytes else { throw .invalidArguments("the content type is too long") }
    }

    /// The secret itself, opened with `transport` and checked against ``Limits/secretBytes``;
    /// the caller zeroes it.
    func opened(with transport: SessionTransport) throws(BusFailure) -> Data {
        var plaintext = try transport.open(parameters: parameters, value: value)
        defer { plaintext.zeroBytes() }
        guard plaintext.count <= Limits.secretBytes else {
            throw .invalidArguments("the secret is \(plaintext.count) bytes, more than \(Limits.secretBytes)")
        }
        return Data(plaintext)
    }

    /// Writes `secret` of `contentType`, sealed with `transport`, in `session`, to `writer`.
    static func write(_ secret: Data, contentType: String, session: String, transport: SessionTransport,
                      to writer: MessageWriter) throws(BusFailure)
    {
        var (parameters, value) = try transport.seal(secret)
        defer { value.zero() }
        try writer.open("r", "oayays")
        try writer.objectPath(session)
        try writer.bytes(parameters)
        try writer.bytes(value)
        try writer.string(contentType)
        try writer.close()
    }

    mutating func zero() {
        value.zeroBytes()
    }
}

extension Array where Element == UInt8 {
    /// Overwrites these bytes with zeros in place: for a copy of a secret the provider made.
    mutating func zeroBytes() {
        withUnsafeMutableBytes { buffer in
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
