import Foundation
import Testing

/// `find-*-password --raw`: the password's bytes exactly as stored, for passwords `-w` can
/// only print as hex; `-w` keeps macOS `security`'s hex.
@Suite struct RawPasswordTests {
    let keychainctl = Keychainctl()

    /// The bytes `od`, an independent reader, sees on keychainctl's standard output, as
    /// lowercase hex pairs.
    func bytesOnStandardOutput(_ arguments: String) throws -> [String] {
        let outcome = try keychainctl.shell("\"$0\" \(arguments) | od -An -tx1 -v")
        #expect(outcome.status == 0, "\(outcome.errors)")
        return outcome.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    @Test("--raw prints a non-ASCII or binary password's bytes as stored, with no newline")
    func rawPrintsTheStoredBytes() throws {
        // "é" in UTF-8, and bytes no text holds: NUL, 0xFF, a newline.
        for hex in ["c3a9", "00ff0a", "74c3a96c"] {
            try keychainctl("add-generic-password", "-a", hex, "-s", "example.com", "-X", hex)
            let stored = stride(from: 0, to: hex.count, by: 2).map {
                String(hex[hex.index(hex.startIndex, offsetBy: $0)..<hex.index(hex.startIndex, offsetBy: $0 + 2)])
            }
            #expect(try bytesOnStandardOutput("find-generic-password -a \(hex) --raw") == stored, "\(hex)")
            #expect(try bytesOnStandardOutput("find-generic-password -a \(hex) -w --raw") == stored, "\(hex)")
            // macOS's form stays the default: -w prints hex and a newline.
            #expect(try keychainctl("find-generic-password", "-a", hex, "-w").output == hex + "\n")
        }
    }

    @Test("--raw works for internet passwords, and a printable password prints unchanged, without newline")
    func rawOfAnInternetPasswordAndOfPlainText() throws {
        try keychainctl("add-internet-password", "-a", "alice", "-s", "example.com", "-w", "plain")
        let outcome = try keychainctl("find-internet-password", "-a", "alice", "--raw")
        #expect(outcome.status == 0)
        #expect(outcome.output == "plain")
    }

    @Test("--raw with -g or --json is a usage error; no match exits 44 with nothing printed")
    func rawRefusesOtherOutputsAndReportsNoMatch() throws {
        for other in ["-g", "--json"] {
            let outcome = try keychainctl("find-generic-password", "-a", "alice", "--raw", other)
            #expect(outcome.status == 2, "\(other)")
            #expect(outcome.errors.contains("--raw prints only the password"), "\(other)")
        }
        let missing = try keychainctl("find-generic-password", "-a", "nobody", "--raw")
        #expect(missing.status == 44)
        #expect(missing.output.isEmpty)
    }

    @Test("A standard output that cannot take the bytes (a full disk) is an error that says so, not a crash")
    func aFullStandardOutputIsAnError() throws {
        try keychainctl("add-generic-password", "-a", "alice", "-s", "example.com", "-X", "c3a9")
        let outcome = try keychainctl.shell("\"$0\" find-generic-password -a alice --raw > /dev/full; echo \"status $?\" >&2")
        #expect(outcome.errors == "keychainctl: cannot write to standard output: No space left on device\nstatus 1\n")
    }
}
