import Foundation

/// A date's fields in UTC, read with gmtime_r rather than a date formatter, which would
/// load ICU's data and cost every process milliseconds at start.
struct UTCTime {
    private let fields: tm

    /// Nil for a date no calendar shows: not finite, or beyond what gmtime_r takes. A
    /// stored date is whatever a program gave, and must not end keychainctl.
    init?(_ date: Date) {
        guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else { return nil }
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil, (-1900...8099).contains(fields.tm_year) else { return nil }
        self.fields = fields
    }

    /// `YYYYMMDDhhmmss`.
    var compact: String {
        padded(Int(fields.tm_year) + 1900, 4) + padded(Int(fields.tm_mon) + 1, 2) + padded(Int(fields.tm_mday), 2)
            + padded(Int(fields.tm_hour), 2) + padded(Int(fields.tm_min), 2) + padded(Int(fields.tm_sec), 2)
    }

    /// ISO 8601: `YYYY-MM-DDThh:mm:ssZ`.
    var iso8601: String {
        padded(Int(fields.tm_year) + 1900, 4) + "-" + padded(Int(fields.tm_mon) + 1, 2) + "-"
            + padded(Int(fields.tm_mday), 2) + "T" + padded(Int(fields.tm_hour), 2) + ":"
            + padded(Int(fields.tm_min), 2) + ":" + padded(Int(fields.tm_sec), 2) + "Z"
    }

    private func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
