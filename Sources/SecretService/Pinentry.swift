/// A conversation with pinentry in the Assuan protocol (GnuPG's): the program greets with
/// `OK`; each command (SETTITLE, SETDESC, SETPROMPT, SETERROR, GETPIN, BYE) is answered by
/// `OK` or `ERR <code> <text>`, and GETPIN's password comes before its `OK` as `D <data>`,
/// percent-escaped. Status (`S`) and comment (`#`) lines are skipped.
struct Pinentry {
    let path: String

    func ask(_ text: PromptText, attempts: Int, dismissal: PromptDismissal,
             check: ([UInt8]) -> PasswordCheck) -> PromptOutcome {
        let program: PromptProgram
        do throws(PromptFailure) {
            program = try PromptProgram.start(path, [], talks: true)
        } catch {
            guard case .failed(let message) = error else { return .dismissed }
            return .failed(message)
        }
        guard dismissal.attach(program) else {
            program.finish()
            return .dismissed
        }
        defer {
            dismissal.detach()
            program.finish()
        }
        let outcome = converse(program, text, attempts: attempts, check: check)
        _ = program.send(Array("BYE".utf8))
        return dismissal.isDismissed && outcome != .accepted ? .dismissed : outcome
    }

    private func converse(_ program: PromptProgram, _ text: PromptText, attempts: Int,
                          check: ([UInt8]) -> PasswordCheck) -> PromptOutcome {
        guard case .ok = answer(of: program) else { return .failed("\(path) did not greet with OK") }
        for (name, value) in [("SETTITLE", text.title), ("SETDESC", text.description), ("SETPROMPT", text.prompt)] {
            guard case .ok = command(program, name, value) else {
                return .failed("\(path) refused \(name)")
            }
        }
        for attempt in 1...attempts {
            if attempt > 1, case .failed = command(program, "SETERROR", text.wrongPassword) {
                return .failed("\(path) refused SETERROR")
            }
            switch command(program, "GETPIN", nil) {
            case .failed:
                return .failed("\(path) ended or broke the Assuan protocol")
            case .error:
                // Cancelled (GPG_ERR_CANCELED) or any other refusal: the user said no.
                return .dismissed
            case .ok(var password):
                defer { password.zeroBytes() }
                switch check(password) {
                case .accepted: return .accepted
                case .wrong: continue
                case .failed(let message): return .failed(message)
                }
            }
        }
        return .dismissed
    }

    private enum Answer {
        /// OK, with the data lines before it (GETPIN's password), unescaped.
        case ok([UInt8])
        case error
        /// The program ended, or sent a line this protocol has not.
        case failed
    }

    private func command(_ program: PromptProgram, _ name: String, _ value: String?) -> Answer {
        var line = Array(name.utf8)
        if let value { line += [UInt8(ascii: " ")] + Self.escaped(value) }
        guard program.send(line) else { return .failed }
        return answer(of: program)
    }

    /// Reads lines up to OK or ERR.
    private func answer(of program: PromptProgram) -> Answer {
        var data: [UInt8] = []
        while var line = program.receiveLine() {
            defer { line.zeroBytes() }
            if line.starts(with: Array("OK".utf8)) && (line.count == 2 || line[2] == UInt8(ascii: " ")) {
                return .ok(data)
            }
            if line.starts(with: Array("ERR".utf8)) {
                data.zeroBytes()
                return .error
            }
            if line.starts(with: Array("D ".utf8)) {
                // One line of data: a password is never longer than a line.
                data.zeroBytes()
                guard let unescaped = Self.unescaped(line[2...]) else { return .failed }
                data = unescaped
                continue
            }
            if line.starts(with: Array("INQUIRE".utf8)) {
                // Nothing to give: cancel the inquiry; the command then fails with ERR.
                guard program.send(Array("CAN".utf8)) else { return .failed }
                continue
            }
            if line.starts(with: Array("S ".utf8)) || line.first == UInt8(ascii: "#") || line == Array("S".utf8) {
                continue
            }
            data.zeroBytes()
            return .failed
        }
        data.zeroBytes()
        return .failed
    }

    /// Assuan's escaping of a parameter: `%`, CR, LF and other control bytes as `%XX`.
    static func escaped(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "%") || byte == 0x7F {
                bytes += Array("%\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))".utf8)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// `%XX` escapes decoded; nil for a malformed escape.
    static func unescaped(_ data: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        var index = data.startIndex
        while index < data.endIndex {
            if data[index] == UInt8(ascii: "%") {
                guard index + 2 < data.endIndex, let high = hexValue(data[index + 1]), let low = hexValue(data[index + 2]) else {
                    bytes.zeroBytes()
                    return nil
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(data[index])
                index += 1
            }
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
