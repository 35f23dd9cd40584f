/// A string timestamp as CPython 3.11 reads it:
/// `datetime.fromisoformat(s.replace("Z", "+00:00"))`, refused when naive, then made
/// milliseconds by `int(round(d.timestamp() * 1000))`.
///
/// `fromisoformat` is CPython's C implementation (Modules/_datetimemodule.c), reproduced step by
/// step, quirks included, so that exactly the strings Python accepts are accepted:
/// - any single character separates date and time (`T`, space, `é`, U+2028…);
/// - dates `YYYY-MM-DD`, `YYYYMMDD` and ISO week dates (`2025-W48-4`, `2025W484`, `2025-W48`);
/// - times `HH`, `HH:MM`, `HH:MM:SS`, `HHMMSS`, a fraction after `.` or `,` of any length
///   (digits past the sixth are ignored), even an empty one (`10:00:00.+05:30`), and a fourth
///   colon group read as the fraction (`10:00:00:5` is 10:00:00.5);
/// - offsets `+HH`, `+HH:MM`, `+HHMM`, `+HH:MM:SS.ffffff` whose minutes may exceed 59 (only the
///   total must lie strictly within ±24 h); an offset of zero seconds ignores its microseconds;
/// - the C code stops at a NUL character, so `…+00:00\u0000` is accepted.
///
/// `d.timestamp()` is the exact microsecond count divided by 10^6 with one correct rounding
/// (Python's integer true division); the product with 1000 is a double product, and `round`
/// rounds half to even: `.0025Z` gives 2 ms, `.0015Z` gives 2 ms.
enum PythonISOTimestamp {
    /// Milliseconds since the epoch, or `nil` where Python raises (`bad_timestamp`).
    /// - Parameter text: the decoded JSON string, as UTF-8.
    /// - Complexity: O(n).
    static func milliseconds(utf8 text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var memo = DateMemo()
        return milliseconds(utf8: text, memo: &memo)
    }

    /// ``milliseconds(utf8:)`` with the date of the last common-form timestamp remembered
    /// (``DateMemo``): the same answer.
    @inline(__always)
    static func milliseconds(utf8 text: UnsafeBufferPointer<UInt8>, memo: inout DateMemo) -> Int64? {
        if let ms = commonForm(text, memo: &memo) { return ms }
        return general(text)
    }

    /// Everything but the common form: CPython's parser, step by step.
    @inline(never)
    private static func general(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var zCount = 0
        var characters = 0
        for byte in text {
            if byte == UInt8(ascii: "Z") { zCount += 1 }
            if byte & 0xC0 != 0x80 { characters += 1 }
        }
        // _sanitize_isoformat_str: fewer than 7 characters is never valid.
        guard characters + 5 * zCount >= 7 else { return nil }
        let length = text.count + 5 * zCount
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer -> Int64? in
            var j = 0
            for byte in text {
                if byte == UInt8(ascii: "Z") {
                    for c in "+00:00".utf8 {
                        buffer[j] = c
                        j += 1
                    }
                } else {
                    buffer[j] = byte
                    j += 1
                }
            }
            return FromISOFormat(text: UnsafeBufferPointer(start: buffer.baseAddress, count: length))
                .epochMilliseconds()
        }
    }
}

extension PythonISOTimestamp {
    /// The day of the last common-form timestamp a reader saw, by its `YYYY-MM-DD`: a stream's
    /// timestamps share their date for hours, so the date's digits, checks and calendar
    /// arithmetic are done once a day of the stream rather than once a line (they were about
    /// two thirds of a timestamp's 215 instructions, callgrind, benchmark stream). Only a
    /// valid date is remembered. Not thread-safe: one per reading thread (``ReaderMemory``).
    struct DateMemo {
        /// Bytes 0-7 (`YYYY-MM-`) of the date, and bytes 8-9 (`DD`), as read; `dayBytes` is
        /// above 0xFFFF while nothing is remembered.
        var head: UInt64 = 0
        var dayBytes: UInt32 = .max
        /// The date's days since 1970-01-01.
        var days: Int64 = 0
    }

    /// The form SDKs send almost always, `YYYY-MM-DDTHH:MM:SS.mmmZ` or `YYYY-MM-DDTHH:MM:SSZ`,
    /// read directly (about a tenth of the general parser's work); `nil` for anything else,
    /// including an invalid date or time, which the general parser then decides. The arithmetic
    /// after parsing is the general path's, so both give the same milliseconds.
    ///
    /// The 24-byte form is read as three words: the date compared with `memo`'s (else read and
    /// checked digit by digit, and remembered), the time's separators and digits checked with
    /// masks, its fields taken from the bytes.
    ///
    /// Out of line: inlined, it made the record parser's body large enough that the line
    /// layouts' match was called rather than inlined (10 M instructions more over 200,000 lines).
    @inline(never)
    static func commonForm(_ t: UnsafeBufferPointer<UInt8>, memo: inout DateMemo) -> Int64? {
        let n = t.count
        guard n == 24, let base = t.baseAddress else { return commonForm(t) }
        let raw = UnsafeRawPointer(base)
        let head = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))      // YYYY-MM-
        let middle = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))  // DDTHH:MM
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self))   // :SS.mmmZ
        let days: Int64
        if head == memo.head && UInt32(truncatingIfNeeded: middle & 0xFFFF) == memo.dayBytes {
            days = memo.days
        } else {
            guard let date = commonDate(t) else { return nil }
            days = CivilCalendar.days(year: date.year, month: date.month, day: date.day)
            memo = DateMemo(head: head, dayBytes: UInt32(truncatingIfNeeded: middle & 0xFFFF), days: days)
        }
        // the separators: T and : in the middle word (bytes 10, 13), : . Z in the last (16, 19, 23)
        let middleSeparators: UInt64 = 0x0000_FF00_00FF_0000, middlePattern: UInt64 = 0x0000_3A00_0054_0000
        let lastSeparators: UInt64 = 0xFF00_0000_FF00_00FF, lastPattern: UInt64 = 0x5A00_0000_2E00_003A
        guard middle & middleSeparators == middlePattern, last & lastSeparators == lastPattern else { return nil }
        // the digits: HH MM in the middle word (bytes 11-12, 14-15), SS mmm in the last (17-18, 20-22);
        // a byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 16
        @inline(__always) func nonDigits(_ w: UInt64, _ mask: UInt64) -> UInt64 {
            (((w & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
                | (((w & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0)) & mask
        }
        guard nonDigits(middle, 0xFFFF_00FF_FF00_0000) | nonDigits(last, 0x00FF_FFFF_00FF_FF00) == 0 else { return nil }
        @inline(__always) func digit(_ w: UInt64, _ byte: Int) -> Int64 { Int64(truncatingIfNeeded: (w >> UInt64(8 &* byte)) & 0x0F) }
        let hour = digit(middle, 3) &* 10 &+ digit(middle, 4)
        let minute = digit(middle, 6) &* 10 &+ digit(middle, 7)
        let second = digit(last, 1) &* 10 &+ digit(last, 2)
        let fraction = digit(last, 4) &* 100 &+ digit(last, 5) &* 10 &+ digit(last, 6)
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        return milliseconds(days: days, hour: hour, minute: minute, second: second, fraction: fraction)
    }

    /// ``commonForm(_:memo:)`` digit by digit (the 20-byte form, and the tests' reference).
    static func commonForm(_ t: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = t.count
        guard n == 24 || n == 20, t[n - 1] == UInt8(ascii: "Z"), t[10] == UInt8(ascii: "T"),
              t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":"), let date = commonDate(t) else { return nil }
        var fraction: Int64 = 0
        if n == 24 {
            guard t[19] == UInt8(ascii: "."), let f = digits(t, 20, 3) else { return nil }
            fraction = f
        }
        guard let hour = digits(t, 11, 2), let minute = digits(t, 14, 2), let second = digits(t, 17, 2),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        return milliseconds(days: CivilCalendar.days(year: date.year, month: date.month, day: date.day),
                            hour: hour, minute: minute, second: second, fraction: fraction)
    }

    /// The date of a common-form timestamp, `YYYY-MM-DD` at its start (at least 10 bytes), when
    /// it is a valid date.
    @inline(__always)
    private static func commonDate(_ t: UnsafeBufferPointer<UInt8>) -> (year: Int64, month: Int64, day: Int64)? {
        guard t.count >= 10, t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"),
              let year = digits(t, 0, 4), let month = digits(t, 5, 2), let day = digits(t, 8, 2),
              year >= 1, month >= 1, month <= 12, day >= 1, day <= CivilCalendar.daysInMonth(year, month)
        else { return nil }
        return (year, month, day)
    }

    /// `count` ASCII digits of `t` from `at`, or nil.
    @inline(__always)
    private static func digits(_ t: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int64? {
        var v: Int64 = 0
        for i in at..<(at + count) {
            let d = t[i] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }

    /// The milliseconds of a UTC date and time, by the general path's arithmetic.
    @inline(__always)
    private static func milliseconds(days: Int64, hour: Int64, minute: Int64, second: Int64, fraction: Int64) -> Int64 {
        let microseconds = days * 86_400_000_000 + ((hour * 60 + minute) * 60 + second) * 1_000_000 + fraction * 1000
        return Int64((FromISOFormat.quotientByMillion(microseconds) * 1000).rounded(.toNearestOrEven))
    }
}

/// CPython 3.11's `datetime_fromisoformat` over a NUL-terminated UTF-8 buffer, by index.
struct FromISOFormat {
    let text: UnsafeBufferPointer<UInt8>

    /// The byte at `i`; the C string's terminating NUL (and beyond) reads as 0.
    @inline(__always) func at(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }

    @inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 48 < 10 }

    /// `parse_digits`: `count` decimal digits at `p`, advancing `p`; `nil` at a non-digit.
    @inline(__always) func digits(_ p: inout Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<count {
            let d = at(p) &- 48
            p += 1
            if d > 9 { return nil }
            value = value * 10 + Int64(d)
        }
        return value
    }

    func epochMilliseconds() -> Int64? {
        let length = text.count
        let separator = separatorLocation()
        guard separator >= 0, let date = parseDate(separator: separator) else { return nil }
        guard length > separator else { return nil }  // a date alone is naive
        // Skip the separator: one character, 1-4 bytes by its UTF-8 lead byte.
        var p = separator
        let lead = at(p)
        if lead & 0x80 == 0 {
            p += 1
        } else {
            switch lead & 0xF0 {
            case 0xE0: p += 3
            case 0xF0: p += 4
            default: p += 2
            }
        }
        guard let time = parseTime(start: p, end: length) else { return nil }
        guard let offset = time.offset else { return nil }  // naive: the peer refuses it

        // tzinfo_from_isoformat_results, then the datetime constructor's range checks.
        var offsetMicroseconds: Int64 = 0
        if offset.seconds != 0 {
            offsetMicroseconds = offset.seconds * 1_000_000 + offset.microseconds
            guard offsetMicroseconds > -86_400_000_000 && offsetMicroseconds < 86_400_000_000 else { return nil }
        }
        guard date.year >= 1 && date.year <= 9999, date.month >= 1 && date.month <= 12,
              date.day >= 1 && date.day <= CivilCalendar.daysInMonth(date.year, date.month),
              time.hour <= 23, time.minute <= 59, time.second <= 59
        else { return nil }

        let days = CivilCalendar.days(year: date.year, month: date.month, day: date.day)
        let microseconds = days * 86_400_000_000
            + ((time.hour * 60 + time.minute) * 60 + time.second) * 1_000_000 + time.microsecond
            - offsetMicroseconds
        let seconds = Self.quotientByMillion(microseconds)
        return Int64((seconds * 1000).rounded(.toNearestOrEven))
    }

    /// `_find_isoformat_datetime_separator`: where the date ends, guessed from characters 4, 5
    /// and 8, or -1.
    func separatorLocation() -> Int {
        let length = text.count
        if length == 7 { return 7 }
        if at(4) == UInt8(ascii: "-") {
            guard at(5) == UInt8(ascii: "W") else { return 10 }  // YYYY-MM-DD
            if length < 8 { return -1 }
            if length > 8 && at(8) == UInt8(ascii: "-") {
                if length == 9 { return -1 }
                if length > 10 && isDigit(at(10)) { return 8 }  // YYYY-Www-HH…, by assumption
                return 10  // YYYY-Www-D
            }
            return 8  // YYYY-Www
        }
        if at(4) == UInt8(ascii: "W") {
            // YYYYWww or YYYYWwwD: count the digits that follow.
            var index = 7
            while index < length && isDigit(at(index)) { index += 1 }
            if index < 9 { return index }
            return index % 2 == 0 ? 7 : 8
        }
        return 8  // YYYYMMDD
    }

    /// `parse_isoformat_date` over `0..<separator`: year, month, day, not yet range-checked.
    func parseDate(separator: Int) -> (year: Int64, month: Int64, day: Int64)? {
        var p = 0
        guard let year = digits(&p, 4) else { return nil }
        let usesSeparator = at(p) == UInt8(ascii: "-")
        if usesSeparator { p += 1 }
        if at(p) == UInt8(ascii: "W") {
            p += 1
            guard let week = digits(&p, 2) else { return nil }
            var weekday: Int64 = 1
            if p < separator {
                if usesSeparator {
                    let c = at(p)
                    p += 1
                    if c != UInt8(ascii: "-") { return nil }
                }
                guard let d = digits(&p, 1) else { return nil }
                weekday = d
            }
            return Self.isoWeekDate(year: year, week: week, weekday: weekday)
        }
        guard let month = digits(&p, 2) else { return nil }
        if usesSeparator {
            let c = at(p)
            p += 1
            if c != UInt8(ascii: "-") { return nil }
        }
        guard let day = digits(&p, 2) else { return nil }
        return (year, month, day)
    }

    /// `iso_to_ymd`. Year 0 never yields a valid date in CPython (its C arithmetic on negative
    /// ordinals ends in month 0 or below), so it is refused outright.
    static func isoWeekDate(year: Int64, week: Int64, weekday: Int64) -> (year: Int64, month: Int64, day: Int64)? {
        guard year >= 1 else { return nil }
        let january1 = CivilCalendar.days(year: year, month: 1, day: 1)
        // Monday = 0 … Sunday = 6; 1970-01-01 was a Thursday (3).
        let firstWeekday = CivilCalendar.floorDivide(january1 + 3, 7).remainder
        if week <= 0 || week >= 53 {
            guard week == 53, firstWeekday == 3 || (firstWeekday == 2 && CivilCalendar.isLeapYear(year))
            else { return nil }
        }
        guard weekday >= 1 && weekday <= 7 else { return nil }
        var week1Monday = january1 - firstWeekday
        if firstWeekday > 3 { week1Monday += 7 }
        return CivilCalendar.date(days: week1Monday + (week - 1) * 7 + weekday - 1)
    }

    struct Time {
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, microsecond: Int64 = 0
        /// The UTC offset as `(seconds, microseconds)` with the sign applied to both; `nil` when naive.
        var offset: (seconds: Int64, microseconds: Int64)?
    }

    /// `parse_isoformat_time` over `start..<end`; `nil` for CPython's negative return codes.
    func parseTime(start: Int, end: Int) -> Time? {
        var zone = start
        repeat {
            let c = at(zone)
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { break }
            zone += 1
        } while zone < end
        guard let clock = parseClock(start: start, end: zone) else { return nil }
        var time = Time(hour: clock.hour, minute: clock.minute, second: clock.second, microsecond: clock.microsecond)
        if zone == end {
            return clock.notAtEnd ? nil : time
        }
        if at(zone) == UInt8(ascii: "Z") {  // never after the peer's replace(), kept for fidelity
            guard at(zone + 1) == 0 else { return nil }
            time.offset = (0, 0)
            return time
        }
        let sign: Int64 = at(zone) == UInt8(ascii: "-") ? -1 : 1
        guard let zoneClock = parseClock(start: zone + 1, end: end), !zoneClock.notAtEnd else { return nil }
        time.offset = (sign * (zoneClock.hour * 3600 + zoneClock.minute * 60 + zoneClock.second),
                       sign * zoneClock.microsecond)
        return time
    }

    struct Clock {
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, microsecond: Int64 = 0
        /// CPython's return code 1: the text goes on after the clock.
        var notAtEnd = false
    }

    /// `parse_hh_mm_ss_ff` over `start..<end`: `HH[:MM[:SS[.f…]]]` or the same without colons.
    func parseClock(start: Int, end: Int) -> Clock? {
        var clock = Clock()
        var p = start
        var hasSeparator = true
        var component = 0
        while component < 3 {
            guard let value = digits(&p, 2) else { return nil }
            switch component {
            case 0: clock.hour = value
            case 1: clock.minute = value
            default: clock.second = value
            }
            let c = at(p)
            p += 1
            if component == 0 { hasSeparator = c == UInt8(ascii: ":") }
            if p >= end {
                clock.notAtEnd = c != 0
                return clock
            } else if hasSeparator && c == UInt8(ascii: ":") {
                component += 1
                continue
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: ",") {
                break
            } else if !hasSeparator {
                p -= 1
            } else {
                return nil
            }
            component += 1
        }
        // The fraction: up to six digits, scaled to microseconds; further digits skipped.
        let count = min(max(end - p, 0), 6)
        guard let fraction = digits(&p, count) else { return nil }
        var scale: Int64 = 1
        if count > 0 {
            for _ in count..<6 { scale *= 10 }
        }
        clock.microsecond = fraction * scale
        while isDigit(at(p)) { p += 1 }
        clock.notAtEnd = at(p) != 0
        return clock
    }

    /// `n / 10**6` with one correct rounding to a double, as Python's integer true division.
    static func quotientByMillion(_ n: Int64) -> Double {
        let magnitude = n.magnitude
        if magnitude <= UInt64(1) << 53 { return Double(n) / 1_000_000 }  // both exact: one rounding
        // Scale so that the 64-bit quotient has 63-64 significant bits, then round it to 53.
        let bits = 64 - magnitude.leadingZeroBitCount  // 54...64
        let shift = 83 - bits                           // 19...29: the quotient stays below 2^64
        let high = magnitude >> UInt64(64 - shift)
        let low = magnitude << UInt64(shift)
        let (quotient, remainder) = UInt64(1_000_000).dividingFullWidth((high: high, low: low))
        let drop = (64 - quotient.leadingZeroBitCount) - 53
        var mantissa = quotient >> UInt64(drop)
        let rest = quotient & ((UInt64(1) << UInt64(drop)) - 1)
        let half = UInt64(1) << UInt64(drop - 1)
        if rest > half || (rest == half && (remainder != 0 || mantissa & 1 == 1)) { mantissa += 1 }
        let value = Double(sign: .plus, exponent: drop - shift, significand: Double(mantissa))
        return n < 0 ? -value : value
    }
}
