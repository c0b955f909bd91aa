import Foundation

/// A date's fields in UTC, read with gmtime_r rather than a date formatter, which would
/// load ICU's data and cost every process milliseconds at start.
struct UTCTime {
    private let fields: tm

    init(_ date: Date) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
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
