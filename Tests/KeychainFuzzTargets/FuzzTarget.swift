/// The libFuzzer targets, by the names Scripts/libfuzz and the corpus folders use.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case queryParser = "query-parser"
    case recordDecoder = "record-decoder"
    case archiveReader = "archive-reader"
    case keychainctl = "keychainctl"
    case certificate = "certificate"
    case keyExchange = "key-exchange"
    case secKey = "seckey"
    case pkcs12Reader = "pkcs12-reader"

    /// Runs one input. A bug shows as a trap (the library's, or a broken expectation's
    /// `fatalError`), a hang or unbounded memory, which libFuzzer reports with the input.
    /// ``FuzzSandbox/enter()`` must have been called.
    public func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .queryParser: QueryParserTarget.run(bytes)
        case .recordDecoder: RecordDecoderTarget.run(bytes)
        case .archiveReader: ArchiveReaderTarget.run(bytes)
        case .keychainctl: KeychainCtlArgumentsTarget.run(bytes)
        case .certificate: CertificateTarget.run(bytes)
        case .keyExchange: KeyExchangeTarget.run(bytes)
        case .secKey: SecKeyTarget.run(bytes)
        case .pkcs12Reader: PKCS12ReaderTarget.run(bytes)
        }
    }
}
