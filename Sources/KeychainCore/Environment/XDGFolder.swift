import Foundation

/// The user's base folders of the XDG Base Directory specification, where the keychains
/// (data) and the machine secret (state) live.
enum XDGFolder {
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    case data
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    case state

    /// The folder: the variable when it holds an absolute path (the specification ignores
    /// a relative one), else its default under `$HOME` (or the account's home).
    func url(environment: [String: String]) -> URL {
        let (variable, fallback) = switch self {
        case .data: ("XDG_DATA_HOME", ".local/share")
        case .state: ("XDG_STATE_HOME", ".local/state")
        }
        if let path = environment[variable], path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback)
    }
}
