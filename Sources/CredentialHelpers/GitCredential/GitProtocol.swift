import Security

/// The keychain's protocol code (`kSecAttrProtocol`) for git's `protocol=` value: the
/// protocols git's osxkeychain helper stores, so that items read the same on both systems.
/// Other protocols (`cert`, `ssh`, ...) are not kept here: the helper then answers nothing
/// and git asks the next helper or the user.
enum GitProtocol {
    static func keychainCode(for name: String) -> String? {
        let code: CFString? = switch name {
        case "https": kSecAttrProtocolHTTPS
        case "http": kSecAttrProtocolHTTP
        case "imap": kSecAttrProtocolIMAP
        case "imaps": kSecAttrProtocolIMAPS
        case "ftp": kSecAttrProtocolFTP
        case "ftps": kSecAttrProtocolFTPS
        case "smtp": kSecAttrProtocolSMTP
        default: nil
        }
        return code.map { $0 as String }
    }
}
