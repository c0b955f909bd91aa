/// The two command-line habits of `security` that its getopt parsing allowed and
/// ArgumentParser does not, rewritten into forms ArgumentParser reads. Everything else is
/// ArgumentParser's.
///
/// - `add-generic-password ... -w` with `-w` last and no value asks for the password:
///   getopt reports the missing value and `security` prompts. ArgumentParser would reject
///   the missing value, so a trailing `-w` becomes the hidden flag `--prompt-for-password`.
/// - `error -25300`: a negative code looks like an option. The codes are put after `--`.
package enum SecurityArguments {
    static let promptFlag = "--prompt-for-password"

    /// Options of the add subcommands that take a value: a `-w` right after one of them is
    /// that option's value (`-l -w` is the label "-w"), as getopt reads it.
    private static let optionsWithValues: Set<String> = [
        "-a", "-c", "-C", "-d", "-D", "-G", "-j", "-l", "-p", "-P", "-r", "-s", "-t", "-T", "-w", "-X",
        "--access-group",
    ]

    package static func rewritten(_ arguments: [String]) -> [String] {
        guard let subcommand = arguments.first else { return arguments }
        var rest = Array(arguments.dropFirst())
        switch subcommand {
        case "add-generic-password", "add-internet-password":
            if rest.last == "-w", !rest.dropLast().contains("--"),
               !optionsWithValues.contains(rest.dropLast().last ?? "") {
                rest[rest.count - 1] = promptFlag
            }
        case "error":
            if !rest.contains(where: { $0 == "-h" || $0 == "--help" }), rest.first != "--" {
                rest.insert("--", at: 0)
            }
        default:
            break
        }
        return [subcommand] + rest
    }
}
