/// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date (the IMF-fixdate
/// form, `Sun, 06 Nov 1994 08:49:37 GMT`), as seconds from `now` (Unix seconds).
enum RetryAfter {
    /// - Returns: seconds to wait (never negative), or `nil` when the value is neither form.
    static func seconds(_ value: String, now: Double) -> Double? {
        let text = value.trimmingWhitespace()
        if let n = Int(text), n >= 0 { return Double(n) }
        guard let date = imfFixdate(text) else { return nil }
        return Swift.max(0, date - now)
    }

    /// Unix seconds of an IMF-fixdate, or `nil`.
    static func imfFixdate(_ text: String) -> Double? {
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let m = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hh = Int(clock[0]), let mm = Int(clock[1]), let ss = Int(clock[2]),
              (0...23).contains(hh), (0...59).contains(mm), (0...60).contains(ss), (1...31).contains(day) else { return nil }
        // days from civil (Howard Hinnant's algorithm)
        let month = m + 1
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + hh * 3600 + mm * 60 + ss)
    }
}
