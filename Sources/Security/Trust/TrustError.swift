import Foundation
@_implementationOnly import KeychainCore

/// The error Apple's SecTrustEvaluateWithError gives for `verdict`; nil when trusted.
///
/// Its code and description are the most serious failure's, naming the certificate by its
/// subject summary; when two certificates fail alike, the one nearer the leaf. Its underlying
/// error, of the same code, describes each failing certificate: "Certificate 0 “leaf” has
/// errors: SSL hostname does not match name(s) in certificate;".
func trustError(_ verdict: TrustVerdict) -> CFError? {
    guard !verdict.isTrusted else { return nil }
    func name(_ index: Int) -> String {
        guard verdict.chain.indices.contains(index) else { return "" }
        return (SecCertificateCopySubjectSummary(verdict.chain[index]) as String?) ?? ""
    }
    guard var worst = verdict.failures.first else {
        let status = KeychainStatus.internalError
        return NSError(domain: NSOSStatusErrorDomain, code: Int(status.code), userInfo: [NSLocalizedDescriptionKey: status.message])
    }
    for failure in verdict.failures.dropFirst()
    where failure.check.isMoreSerious(than: worst.check) || (failure.check == worst.check && failure.index < worst.index) {
        worst = failure
    }
    var details = ""
    for index in Set(verdict.failures.map(\.index)).sorted() {
        let checks = verdict.failures.filter { $0.index == index }.map(\.check.detail)
        details += "Certificate \(index) \u{201C}\(name(index))\u{201D} has errors: \(checks.joined(separator: ", "));"
    }
    let code = Int(worst.check.status.code)
    let underlying = NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: details])
    return NSError(domain: NSOSStatusErrorDomain, code: code, userInfo: [
        NSLocalizedDescriptionKey: worst.check.summary(naming: name(worst.index)),
        NSUnderlyingErrorKey: underlying,
    ])
}
