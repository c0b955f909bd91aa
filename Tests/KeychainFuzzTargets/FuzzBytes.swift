/// The fuzzer's bytes read front to back as the choices that build an input: a byte, a
/// number, a run of bytes. Past the end every read gives zeros, so that any input, however
/// short, builds something and the fuzzer's mutations change one choice at a time.
struct FuzzBytes {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A choice among `count` (at least 1) possibilities.
    mutating func choice(_ count: Int) -> Int {
        Int(byte()) % count
    }

    mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// Eight bytes, big-endian.
    mutating func uint64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// A run of bytes whose length is the next byte (0 to 255), cut short by the input's end.
    mutating func run() -> [UInt8] {
        let count = Int(byte())
        let available = Swift.min(count, bytes.count - Swift.min(offset, bytes.count))
        defer { offset += available }
        return Array(bytes[offset..<offset + available])
    }

    /// The rest of the input.
    mutating func rest() -> [UInt8] {
        guard offset < bytes.count else { return [] }
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
