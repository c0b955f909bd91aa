import Foundation
import KeychainCore

/// The record decoder on arbitrary bytes, as it would meet a damaged record after
/// decryption: it throws errSecDecode or returns attributes, never traps. What it returns must
/// survive the codec's round trip: encoded again, it decodes to attributes of the same
/// encoding (compared as bytes, so that a NaN date still compares).
enum RecordDecoderTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let attributes: [String: AttributeValue]
        do {
            attributes = try RecordCodec.decode(Data(bytes))
        } catch {
            guard error == .decode else { fatalError("damaged record bytes gave \(error), not errSecDecode") }
            return
        }
        // The format gives a code one byte of length; the decoder can return a longer one
        // when it replaces invalid UTF-8, which no stored record holds (the schema's codes
        // are four ASCII letters).
        guard attributes.keys.allSatisfy({ $0.utf8.count <= Int(UInt8.max) }) else { return }
        let encoded = RecordCodec.encode(attributes)
        guard let again = try? RecordCodec.decode(encoded) else { fatalError("the codec cannot read what it wrote") }
        guard RecordCodec.encode(again) == encoded else { fatalError("the codec's round trip changed a record") }
    }
}
