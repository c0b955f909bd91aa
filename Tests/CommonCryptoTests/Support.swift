import CommonCrypto
import Foundation
import Testing

/// Bytes from hexadecimal, as test vectors are printed (spaces allowed).
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Hexadecimal of bytes, lowercase.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Random bytes for the inputs checked against openssl.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// The openssl command, an implementation independent of swift-crypto, as the oracle.
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl arguments...` with `input` in a scratch file passed as `-in`, and returns
    /// what it wrote to standard output.
    static func run(_ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("commoncrypto-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("output")
        var arguments = arguments
        // kdf prints its key; the others write to -out. dgst takes its input last, without -in.
        if arguments.first != "kdf" { arguments += ["-out", output.path] }
        if let input {
            let file = folder.appendingPathComponent("input")
            try Data(input).write(to: file)
            arguments += arguments.first == "dgst" ? [file.path] : ["-in", file.path]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        let printed = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errors = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(String(decoding: errors, as: UTF8.self))")
        }
        if arguments.first == "kdf" {
            // kdf prints the key as hexadecimal bytes separated by colons.
            return hex(String(decoding: printed, as: UTF8.self).replacingOccurrences(of: ":", with: ""))
        }
        return [UInt8](try Data(contentsOf: output))
    }
}

/// What a cryptor of `algorithm` gives for `input` fed to CCCryptorUpdate in pieces of
/// `piece` bytes, each given exactly the room CCCryptorGetOutputLength says, then
/// CCCryptorFinal; nil when a call fails.
func cryptInPieces(_ op: Int, _ algorithm: Int, _ options: Int, key: [UInt8], iv: [UInt8], _ input: [UInt8],
                   piece: Int) -> [UInt8]? {
    var cryptor: CCCryptorRef?
    guard CCCryptorCreate(CCOperation(op), CCAlgorithm(algorithm), CCOptions(options), key, key.count, iv, &cryptor)
        == CCCryptorStatus(kCCSuccess) else { return nil }
    defer { CCCryptorRelease(cryptor) }
    var output: [UInt8] = []
    for start in stride(from: 0, to: input.count, by: piece) {
        let chunk = Array(input[start..<min(start + piece, input.count)])
        var buffer = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, chunk.count, false))
        var moved = -1
        guard CCCryptorUpdate(cryptor, chunk, chunk.count, &buffer, buffer.count, &moved) == kCCSuccess else { return nil }
        output += buffer[..<moved]
    }
    var last = [UInt8](repeating: 0, count: CCCryptorGetOutputLength(cryptor, 0, true))
    var moved = -1
    guard CCCryptorFinal(cryptor, &last, last.count, &moved) == kCCSuccess else { return nil }
    return output + last[..<moved]
}

/// One CCCrypt call; the status, the output, and the bytes it says it moved (or needs).
func cryptOnce(_ op: Int, _ algorithm: Int, _ options: Int, key: [UInt8], iv: [UInt8]?, _ input: [UInt8],
               room: Int? = nil) -> (status: CCCryptorStatus, output: [UInt8], moved: Int) {
    var output = [UInt8](repeating: 0, count: room ?? input.count + kCCBlockSizeAES128)
    var moved = 0
    let status = CCCrypt(CCOperation(op), CCAlgorithm(algorithm), CCOptions(options), key, key.count, iv,
                         input, input.count, &output, output.count, &moved)
    return (status, Array(output[..<min(moved, output.count)]), moved)
}

/// Checks CCCrypt against `openssl enc` with `arguments` (cipher, key and IV): both encrypt
/// `message` to the same bytes, CCCrypt decrypts openssl's and openssl decrypts CCCrypt's.
func expectSameAsOpenSSL(_ algorithm: Int, _ options: Int, key: [UInt8], iv: [UInt8]?, _ message: [UInt8],
                         openSSL arguments: [String]) throws {
    let expected = try OpenSSL.run(arguments + ["-e"], input: message)
    let encrypted = cryptOnce(kCCEncrypt, algorithm, options, key: key, iv: iv, message)
    #expect(encrypted.status == kCCSuccess)
    #expect(encrypted.output == expected, "\(arguments) length \(message.count)")
    let decrypted = cryptOnce(kCCDecrypt, algorithm, options, key: key, iv: iv, expected)
    #expect(decrypted.status == kCCSuccess)
    #expect(decrypted.output == message)
    if !expected.isEmpty {
        #expect(try OpenSSL.run(arguments + ["-d"], input: encrypted.output) == message)
    }
}
