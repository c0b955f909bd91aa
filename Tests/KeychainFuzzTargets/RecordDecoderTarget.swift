import Foundation
import KeychainCore

/// The record decoder on arbitrary bytes, as it would meet a damaged record after
/// decryption: it throws errSecDecode or returns attributes, never traps. The decoder accepts
/// only what the encoder writes, so what it returns, encoded again, is the input byte for
/// byte (compared as bytes, so that a NaN date still compares).
enum RecordDecoderTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let attributes: [String: AttributeValue]
        do {
            attributes = try RecordCodec.decode(Data(bytes))
        } catch {
            guard error == .decode else { fatalError("damaged record bytes gave \(error), not errSecDecode") }
            return
        }
        guard let encoded = try? RecordCodec.encode(attributes) else { fatalError("the codec cannot write what it read") }
        guard encoded == Data(bytes) else { fatalError("the codec's round trip changed a record") }
    }
}
