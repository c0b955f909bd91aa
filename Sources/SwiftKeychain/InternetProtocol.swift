/// The protocol of an internet password (`kSecAttrProtocol`), with Apple's four-character
/// raw values (`kSecAttrProtocolHTTPS` is `"htps"`).
public enum InternetProtocol: String, Sendable, Hashable, CaseIterable {
    /// FTP.
    case ftp = "ftp "
    /// An FTP account.
    case ftpAccount = "ftpa"
    /// HTTP.
    case http = "http"
    /// IRC.
    case irc = "irc "
    /// NNTP.
    case nntp = "nntp"
    /// POP3.
    case pop3 = "pop3"
    /// SMTP.
    case smtp = "smtp"
    /// SOCKS.
    case socks = "sox "
    /// IMAP.
    case imap = "imap"
    /// LDAP.
    case ldap = "ldap"
    /// AppleTalk.
    case appleTalk = "atlk"
    /// AFP.
    case afp = "afp "
    /// Telnet.
    case telnet = "teln"
    /// SSH.
    case ssh = "ssh "
    /// FTP over TLS.
    case ftps = "ftps"
    /// HTTP over TLS.
    case https = "htps"
    /// An HTTP proxy.
    case httpProxy = "htpx"
    /// An HTTPS proxy.
    case httpsProxy = "htsx"
    /// An FTP proxy.
    case ftpProxy = "ftpx"
    /// SMB.
    case smb = "smb "
    /// RTSP.
    case rtsp = "rtsp"
    /// An RTSP proxy.
    case rtspProxy = "rtsx"
    /// DAAP.
    case daap = "daap"
    /// EPPC.
    case eppc = "eppc"
    /// IPP.
    case ipp = "ipp "
    /// NNTP over TLS.
    case nntps = "ntps"
    /// LDAP over TLS.
    case ldaps = "ldps"
    /// Telnet over TLS.
    case telnetS = "tels"
    /// IMAP over TLS.
    case imaps = "imps"
    /// IRC over TLS.
    case ircs = "ircs"
    /// POP3 over TLS.
    case pop3S = "pops"
}
