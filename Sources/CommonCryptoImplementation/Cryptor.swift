import CommonCrypto
import Crypto
import CryptoExtras
import Foundation
internal import LegacyCiphers
#if canImport(Glibc)
import Glibc
#endif

/// An AES, DES or Triple DES cryptor in CBC or ECB mode, with or without PKCS #7 padding, or
/// in one of the stream modes CFB, CFB8 and OFB (and CTR for AES), behind a `CCCryptorRef`.
///
/// AES's CBC runs on CryptoExtras' `AES._CBC` (whole blocks, no padding, chained through the
/// last ciphertext block), its ECB on the AES block function `AES.permute`, CTR on `AES._CTR`;
/// DES's blocks on BoringSSL's DES (``TripleDES``), chained here for CBC. This type does the
/// buffering and the padding, as Apple's cryptor does: input is held until a whole block is
/// there, and a decryptor with padding holds the last block back until ``finish(into:)``. The
/// stream modes give a byte out for every byte in, and ignore padding; CFB and OFB run here
/// over the cipher's block function.
final class Cryptor {
    enum Mode {
        case ecb, cbc, ctr
        /// Cipher feedback of a whole block, of one byte (CFB8), and output feedback.
        case cfb, cfb8, ofb
        /// RC4's only mode: its keystream.
        case rc4

        /// A stream mode: every byte in gives a byte out, without padding.
        var isStream: Bool { self != .ecb && self != .cbc }
    }

    /// The block cipher and its key.
    enum Cipher {
        /// 16-byte blocks; swift-crypto's `SymmetricKey` keeps the key in memory it zeroes
        /// when freed.
        case aes(SymmetricKey)
        /// 8-byte blocks: DES or Triple DES by the key's length; its key schedules are
        /// zeroed when freed.
        case des(TripleDES)
        /// A stream cipher (``Mode/rc4``): its state is zeroed when freed.
        case rc4(RC4Stream)

        var blockSize: Int {
            switch self {
            case .aes: 16
            case .des: TripleDES.blockByteCount
            case .rc4: 1
            }
        }
    }

    let encrypting: Bool
    let mode: Mode
    let padding: Bool
    let blockSize: Int
    private let cipher: Cipher
    /// CBC's chaining value: the IV, then the last ciphertext block.
    private var chain: [UInt8]
    /// Input not yet processed: less than a block, or up to a block held back for the padding.
    private var held: [UInt8] = []
    /// CTR's keystream left over from the last block used: the counter's block was used in part.
    /// CFB's: the encryption of the register, used from ``feedbackOffset`` on.
    private var keystream: [UInt8] = []
    /// CFB and OFB: how many bytes of the current block were used.
    private var feedbackOffset = 0

    /// CTR only with AES, as the caller checks.
    init(encrypting: Bool, mode: Mode, padding: Bool, cipher: Cipher, iv: UnsafeRawPointer?) {
        self.encrypting = encrypting
        self.mode = mode
        self.padding = mode.isStream ? false : padding
        self.cipher = cipher
        self.blockSize = cipher.blockSize
        self.chain = Self.initialVector(iv, blockSize: cipher.blockSize)
    }

    deinit {
        Self.zero(&chain)
        Self.zero(&held)
        Self.zero(&keystream)
    }

    /// Apple's rule: a null IV is a block of zeros.
    private static func initialVector(_ iv: UnsafeRawPointer?, blockSize: Int) -> [UInt8] {
        guard let iv else { return [UInt8](repeating: 0, count: blockSize) }
        return Array(UnsafeRawBufferPointer(start: iv, count: blockSize))
    }

    static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            explicit_bzero(base, buffer.count)
        }
        bytes.removeAll()
    }

    /// Starts over with a new IV (null: zeros), dropping held input, as `CCCryptorReset` does.
    func reset(iv: UnsafeRawPointer?) {
        Self.zero(&held)
        Self.zero(&keystream)
        Self.zero(&chain)
        feedbackOffset = 0
        chain = Self.initialVector(iv, blockSize: blockSize)
    }

    /// How many input bytes an update of `inputLength` more bytes processes now.
    private func processedByUpdate(_ inputLength: Int) -> Int {
        if mode.isStream { return inputLength }
        let total = held.count + inputLength
        var whole = total / blockSize * blockSize
        // A decryptor with padding keeps the last whole block until the end: it may be the padding.
        if !encrypting && padding && whole == total && whole > 0 {
            whole -= blockSize
        }
        return whole
    }

    /// The output an update of `inputLength` bytes needs, or with `final`, the update and the
    /// end together: Apple's `CCCryptorGetOutputLength`.
    func outputLength(_ inputLength: Int, final: Bool) -> Int {
        let total = held.count + inputLength
        if mode.isStream { return total }
        if encrypting {
            let whole = total / blockSize * blockSize
            return final && padding ? whole + blockSize : whole
        }
        return final ? total : total / blockSize * blockSize
    }

    /// Processes `input`, writing what it can to `output`; returns the bytes written or a status.
    func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Result<Int, StatusCode> {
        let count = processedByUpdate(input.count)
        if output.count < count { return .failure(StatusCode(kCCBufferTooSmall, needed: count)) }
        // Copy the input first: Apple allows the output to be the input's own buffer.
        var pending = held
        pending.append(contentsOf: input)
        // The append copied the held bytes to a new buffer: clear the old one before it is freed.
        Self.zero(&held)
        held = Array(pending[count...])
        var blocks = Array(pending[..<count])
        Self.zero(&pending)
        defer { Self.zero(&blocks) }
        guard !blocks.isEmpty else { return .success(0) }
        let transformed = Result { () throws -> [UInt8] in
            switch mode {
            case .ecb, .cbc: try transform(blocks)
            case .ctr: try counterMode(blocks)
            case .cfb, .cfb8, .ofb: try feedbackMode(blocks)
            case .rc4: try rc4Mode(blocks)
            }
        }
        guard case .success(var result) = transformed else { return .failure(StatusCode(kCCUnspecifiedError)) }
        defer { Self.zero(&result) }
        result.withUnsafeBytes { output.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return .success(result.count)
    }

    /// Ends the operation: pads and encrypts the last block, or decrypts it and removes the
    /// padding. Returns the bytes written or a status.
    func finish(into output: UnsafeMutableRawBufferPointer) -> Result<Int, StatusCode> {
        if mode.isStream { return .success(0) }
        var last: [UInt8]
        if encrypting {
            if padding {
                let pad = blockSize - held.count
                last = held + [UInt8](repeating: UInt8(pad), count: pad)
            } else {
                guard held.isEmpty else { return .failure(StatusCode(kCCAlignmentError)) }
                return .success(0)
            }
        } else {
            if !padding {
                guard held.isEmpty else { return .failure(StatusCode(kCCAlignmentError)) }
                return .success(0)
            }
            guard held.count == blockSize else {
                return .failure(StatusCode(held.isEmpty ? kCCDecodeError : kCCAlignmentError))
            }
            last = held
        }
        defer { Self.zero(&last) }
        // A failed end leaves the cryptor as it was, so that a call with a larger buffer can follow.
        let chainBefore = chain
        guard var result = try? transform(last) else { return .failure(StatusCode(kCCUnspecifiedError)) }
        defer { Self.zero(&result) }
        var length = result.count
        if !encrypting {
            guard let unpadded = Self.unpaddedLength(result, blockSize: blockSize) else {
                chain = chainBefore
                return .failure(StatusCode(kCCDecodeError))
            }
            length = unpadded
        }
        if output.count < length {
            chain = chainBefore
            return .failure(StatusCode(kCCBufferTooSmall, needed: length))
        }
        result.withUnsafeBytes { output.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: length) }
        Self.zero(&held)
        return .success(length)
    }

    /// The length of a decrypted last block without its PKCS #7 padding, or nil if the padding
    /// is not valid. Every padding byte is checked, without branching on secret bytes.
    private static func unpaddedLength(_ block: [UInt8], blockSize: Int) -> Int? {
        let pad = Int(block[blockSize - 1])
        var bad = UInt8(pad == 0 || pad > blockSize ? 1 : 0)
        for index in 0..<blockSize {
            // Bytes within the padding must all equal its length.
            let inPadding: UInt8 = index >= blockSize - pad ? 0xFF : 0
            bad |= (block[index] ^ UInt8(truncatingIfNeeded: pad)) & inPadding
        }
        return bad == 0 ? blockSize - pad : nil
    }

    /// CTR: XORs the input with the keystream, which CryptoExtras' `AES._CTR` gives as the
    /// encryption of zeros from the current counter; the counter (the IV, big-endian over all
    /// 128 bits) advances by the blocks used, and the rest of a block used in part is kept.
    private func counterMode(_ input: [UInt8]) throws -> [UInt8] {
        var output = input
        var offset = 0
        while offset < output.count {
            if keystream.isEmpty {
                let blocks = (output.count - offset + blockSize - 1) / blockSize
                let zeros = [UInt8](repeating: 0, count: blocks * blockSize)
                guard case .aes(let key) = cipher else { throw StatusCode(kCCUnimplemented) }
                var stream = try AES._CTR.encrypt(zeros, using: key, nonce: AES._CTR.Nonce(nonceBytes: chain))
                keystream = [UInt8](stream)
                stream.resetBytes(in: 0..<stream.count)
                Self.advance(&chain, by: blocks)
            }
            let used = min(keystream.count, output.count - offset)
            for index in 0..<used { output[offset + index] ^= keystream[index] }
            keystream.withUnsafeMutableBytes { explicit_bzero($0.baseAddress!, used) }
            keystream.removeFirst(used)
            offset += used
        }
        return output
    }

    /// CFB, CFB8 and OFB, which use only the cipher's forward direction. OFB's keystream is the
    /// register encrypted again and again. CFB XORs the input with the encrypted register and
    /// feeds the ciphertext back into it: a whole block (built byte by byte, so input can
    /// stop mid-block), or for CFB8 one byte at a time, shifting the register left.
    private func feedbackMode(_ input: [UInt8]) throws -> [UInt8] {
        var output = input
        for index in output.indices {
            let byte = input[index]
            switch mode {
            case .ofb:
                if feedbackOffset == 0 { try encryptBlock(&chain) }
                output[index] = byte ^ chain[feedbackOffset]
                feedbackOffset = (feedbackOffset + 1) % blockSize
            case .cfb8:
                try encryptRegisterIntoKeystream()
                output[index] = byte ^ keystream[0]
                chain.removeFirst()
                chain.append(encrypting ? output[index] : byte)
            default:
                if feedbackOffset == 0 { try encryptRegisterIntoKeystream() }
                output[index] = byte ^ keystream[feedbackOffset]
                chain[feedbackOffset] = encrypting ? output[index] : byte
                feedbackOffset = (feedbackOffset + 1) % blockSize
            }
        }
        return output
    }

    /// RC4: the stream cipher's keystream, continuing from the last call.
    private func rc4Mode(_ input: [UInt8]) throws -> [UInt8] {
        guard case .rc4(let stream) = cipher else { throw StatusCode(kCCUnspecifiedError) }
        var output = input
        stream.apply(to: &output)
        return output
    }

    /// CFB's keystream block: the register, encrypted, in the keystream's own buffer, which is
    /// zeroed when the cryptor is freed or reset.
    private func encryptRegisterIntoKeystream() throws {
        if keystream.count != blockSize {
            Self.zero(&keystream)
            keystream = [UInt8](repeating: 0, count: blockSize)
        }
        for index in 0..<blockSize { keystream[index] = chain[index] }
        try encryptBlock(&keystream)
    }

    /// Encrypts one block in place with the cipher's forward direction.
    private func encryptBlock(_ block: inout [UInt8]) throws {
        switch cipher {
        case .aes(let key):
            try AES.permute(&block, key: key)
        case .des(let des):
            let result = des.encrypt(block: Self.bigEndianBlock(block, at: 0))
            for byte in 0..<8 { block[byte] = UInt8(truncatingIfNeeded: result >> UInt64(56 - 8 * byte)) }
        case .rc4:
            throw StatusCode(kCCUnspecifiedError)
        }
    }

    /// Adds `blocks` to a big-endian 128-bit counter, wrapping around as AES-CTR's counter does.
    private static func advance(_ counter: inout [UInt8], by blocks: Int) {
        var carry = UInt64(blocks)
        var index = counter.count - 1
        while carry > 0 && index >= 0 {
            let sum = UInt64(counter[index]) + (carry & 0xFF)
            counter[index] = UInt8(truncatingIfNeeded: sum)
            carry = (carry >> 8) + (sum >> 8)
            index -= 1
        }
    }

    /// Encrypts or decrypts whole blocks, and advances CBC's chain.
    private func transform(_ blocks: [UInt8]) throws -> [UInt8] {
        switch cipher {
        case .aes(let key): try transformAES(blocks, key: key)
        case .des(let des): transformDES(blocks, des)
        case .rc4: throw StatusCode(kCCUnspecifiedError)
        }
    }

    private func transformAES(_ blocks: [UInt8], key: SymmetricKey) throws -> [UInt8] {
        if mode == .ecb {
            var output = [UInt8]()
            output.reserveCapacity(blocks.count)
            var block = [UInt8](repeating: 0, count: blockSize)
            defer { Self.zero(&block) }
            for start in stride(from: 0, to: blocks.count, by: blockSize) {
                block.withUnsafeMutableBytes { $0.copyBytes(from: blocks[start..<start + blockSize]) }
                if encrypting {
                    try AES.permute(&block, key: key)
                } else {
                    try AES.inversePermute(&block, key: key)
                }
                output.append(contentsOf: block)
            }
            return output
        }
        let iv = try AES._CBC.IV(ivBytes: chain)
        var data: Data
        if encrypting {
            data = try AES._CBC.encrypt(blocks, using: key, iv: iv, noPadding: true)
            chain = Array(data.suffix(blockSize))
        } else {
            data = try AES._CBC.decrypt(blocks, using: key, iv: iv, noPadding: true)
            chain = Array(blocks.suffix(blockSize))
        }
        let output = [UInt8](data)
        data.resetBytes(in: 0..<data.count)
        return output
    }

    /// DES's blocks, as big-endian 64-bit values; CBC chains each through the one before.
    private func transformDES(_ blocks: [UInt8], _ des: TripleDES) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(blocks.count)
        var previous = Self.bigEndianBlock(chain, at: 0)
        for start in stride(from: 0, to: blocks.count, by: blockSize) {
            let block = Self.bigEndianBlock(blocks, at: start)
            let result: UInt64
            switch (mode, encrypting) {
            case (.ecb, true): result = des.encrypt(block: block)
            case (.ecb, false): result = des.decrypt(block: block)
            case (_, true):
                result = des.encrypt(block: block ^ previous)
                previous = result
            case (_, false):
                result = des.decrypt(block: block) ^ previous
                previous = block
            }
            for byte in 0..<8 { output.append(UInt8(truncatingIfNeeded: result >> UInt64(56 - 8 * byte))) }
        }
        if mode == .cbc {
            for byte in 0..<8 { chain[byte] = UInt8(truncatingIfNeeded: previous >> UInt64(56 - 8 * byte)) }
        }
        return output
    }

    /// Eight bytes of `bytes` from `offset`, big-endian.
    private static func bigEndianBlock(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}

/// A status, with the output size needed where the status is ``kCCBufferTooSmall``.
struct StatusCode: Error {
    let code: Int
    let needed: Int?
    init(_ code: Int, needed: Int? = nil) {
        self.code = code
        self.needed = needed
    }
}
