import CSDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads the arguments of a D-Bus message in order. sd-bus has already checked the message's
/// signature against the interface tables, so a failure here means a malformed message.
struct MessageReader {
    let message: OpaquePointer

    func string() throws(BusFailure) -> String {
        String(cString: try basic(UInt8(ascii: "s")))
    }

    func objectPath() throws(BusFailure) -> String {
        String(cString: try basic(UInt8(ascii: "o")))
    }

    func boolean() throws(BusFailure) -> Bool {
        var value: Int32 = 0
        try read(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &value))
        return value != 0
    }

    /// An array of bytes (`ay`) of at most `limit` bytes, copied out of the message.
    func bytes(limit: Int, naming what: String) throws(BusFailure) -> [UInt8] {
        var pointer: UnsafeRawPointer?
        var size = 0
        try read(sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size))
        guard size <= limit else { throw .invalidArguments("\(what) is \(size) bytes, more than \(limit)") }
        guard let pointer, size > 0 else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: size))
    }

    /// An array of object paths (`ao`) of at most `limit` entries.
    func objectPaths(limit: Int) throws(BusFailure) -> [String] {
        try enter("a", "o")
        var paths: [String] = []
        while try !atEnd() {
            guard paths.count < limit else { throw .invalidArguments("more than \(limit) object paths") }
            paths.append(try objectPath())
        }
        try exit()
        return paths
    }

    /// A string dictionary (`a{ss}`) of attributes, checked against ``Limits``; a name given
    /// twice is refused.
    func attributes() throws(BusFailure) -> ItemAttributes {
        try enter("a", "{ss}")
        var values: [String: String] = [:]
        while try enterIfAny("e", "ss") {
            guard values.count < Limits.attributeCount else {
                throw .invalidArguments("more than \(Limits.attributeCount) attributes")
            }
            let name = try string()
            let value = try string()
            try exit()
            guard values.updateValue(value, forKey: name) == nil else {
                throw .invalidArguments("the attribute '\(name.prefix(64))' is given twice")
            }
        }
        try exit()
        return try ItemAttributes(checking: values)
    }

    /// Enters a container of `type` with `contents`.
    func enter(_ type: Character, _ contents: String) throws(BusFailure) {
        guard try enterIfAny(type, contents) else { throw .invalidArguments("a '\(type)\(contents)' argument is missing") }
    }

    /// Enters the next element of an array when there is one; false at the array's end.
    func enterIfAny(_ type: Character, _ contents: String) throws(BusFailure) -> Bool {
        let status = sd_bus_message_enter_container(message, CChar(type.asciiValue ?? 0), contents)
        try read(status)
        return status > 0
    }

    func exit() throws(BusFailure) {
        try read(sd_bus_message_exit_container(message))
    }

    /// Whether the current array has no more elements.
    func atEnd() throws(BusFailure) -> Bool {
        let status = sd_bus_message_at_end(message, 0)
        try read(status)
        return status > 0
    }

    /// The signature of the next value inside a variant, when the reader is at a variant.
    func variantContents() throws(BusFailure) -> String {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try read(sd_bus_message_peek_type(message, &type, &contents))
        guard type == CChar(UInt8(ascii: "v")), let contents else { throw .invalidArguments("a variant was expected") }
        return String(cString: contents)
    }

    /// Skips the next complete value.
    func skip() throws(BusFailure) {
        try read(sd_bus_message_skip(message, nil))
    }

    private func basic(_ type: UInt8) throws(BusFailure) -> UnsafePointer<CChar> {
        var pointer: UnsafePointer<CChar>?
        try read(sd_bus_message_read_basic(message, CChar(type), &pointer))
        guard let pointer else { throw .invalidArguments("an argument is missing") }
        return pointer
    }

    private func read(_ status: Int32) throws(BusFailure) {
        guard status >= 0 else {
            throw .invalidArguments("malformed arguments: \(String(cString: strerror(-status)))")
        }
    }
}

/// Appends values to a D-Bus message being built.
struct MessageWriter {
    let message: OpaquePointer

    func string(_ value: String) throws(BusFailure) {
        try appended(value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) })
    }

    func objectPath(_ value: String) throws(BusFailure) {
        try appended(value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "o")), $0) })
    }

    func boolean(_ value: Bool) throws(BusFailure) {
        var bit: Int32 = value ? 1 : 0
        try appended(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &bit))
    }

    func uint64(_ value: UInt64) throws(BusFailure) {
        var number = value
        try appended(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &number))
    }

    func bytes(_ value: Data) throws(BusFailure) {
        try appended(value.withUnsafeBytes {
            sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count)
        })
    }

    func objectPaths(_ paths: [String]) throws(BusFailure) {
        try open("a", "o")
        for path in paths { try objectPath(path) }
        try close()
    }

    func attributes(_ attributes: ItemAttributes) throws(BusFailure) {
        try open("a", "{ss}")
        for (name, value) in attributes.values.sorted(by: { $0.key < $1.key }) {
            try open("e", "ss")
            try string(name)
            try string(value)
            try close()
        }
        try close()
    }

    func open(_ type: Character, _ contents: String) throws(BusFailure) {
        try appended(sd_bus_message_open_container(message, CChar(type.asciiValue ?? 0), contents))
    }

    func close() throws(BusFailure) {
        try appended(sd_bus_message_close_container(message))
    }

    private func appended(_ status: Int32) throws(BusFailure) {
        guard status >= 0 else { throw .failed("cannot build the reply: \(String(cString: strerror(-status)))") }
    }
}
