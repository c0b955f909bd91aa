/// How an internet password authenticates (`kSecAttrAuthenticationType`), with Apple's
/// four-character raw values (`kSecAttrAuthenticationTypeHTTPBasic` is `"http"`).
public enum AuthenticationType: String, Sendable, Hashable, CaseIterable {
    /// NTLM.
    case ntlm = "ntlm"
    /// MSN.
    case msn = "msna"
    /// DPA.
    case dpa = "dpaa"
    /// RPA.
    case rpa = "rpaa"
    /// HTTP basic authentication.
    case httpBasic = "http"
    /// HTTP digest authentication.
    case httpDigest = "httd"
    /// An HTML form.
    case htmlForm = "form"
    /// The default (`kSecAttrAuthenticationTypeDefault`).
    case `default` = "dflt"
}
