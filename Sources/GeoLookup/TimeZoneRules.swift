/// One zone's UTC offsets through time, read from its TZif file (RFC 8536) in the system's tz
/// database, answering the offset at an instant exactly as Python's `zoneinfo` does
/// (`datetime.fromtimestamp(t, ZoneInfo(name)).utcoffset()`): the reference the offsets are
/// checked against.
///
/// What `zoneinfo` does, and so what this does (CPython's `Lib/zoneinfo/_zoneinfo.py`,
/// `ZoneInfo.fromutc`, read for its arithmetic):
/// - the instant is taken in whole seconds, rounded down;
/// - before the first transition: the first standard-time type of the file (the first type
///   when every one is daylight time);
/// - after the last transition, when the file has a POSIX TZ string: the string's rule for the
///   instant's UTC year; without one, the last transition's type;
/// - between: the type of the last transition at or before the instant.
///
/// Leap seconds are ignored (the `right/` zones are not read), as `zoneinfo` ignores them.
public struct TimeZoneRules: Sendable, Hashable {
    /// Transition instants, UTC seconds, ascending.
    let transitions: [Int64]
    /// The UTC offset from each transition on, in seconds.
    let offsets: [Int32]
    /// The offset before the first transition.
    let offsetBefore: Int32
    /// What holds after the last transition.
    let after: After

    enum After: Sendable, Hashable {
        case fixed(Int32)
        case rule(TZStringRule)
    }

    /// Why a TZif file could not be read.
    public struct FormatError: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads a TZif file's bytes (version 1 to 4; the 64-bit block when there is one).
    /// - Throws: ``FormatError`` saying what is wrong.
    public init(tzif bytes: [UInt8]) throws(FormatError) {
        var reader = ByteReader(bytes)
        var header = try reader.header()
        if header.version >= 2 {
            // skip the 32-bit block: its data, then read the second header
            try reader.skip(header.timecnt * 5 + header.typecnt * 6 + header.charcnt + header.leapcnt * 8
                            + header.isstdcnt + header.isutcnt)
            header = try reader.header()
        }
        let wide = header.version >= 2
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timecnt)
        for _ in 0..<header.timecnt { transitions.append(wide ? try reader.int64() : Int64(try reader.int32())) }
        var indices: [Int] = []
        for _ in 0..<header.timecnt { indices.append(Int(try reader.byte())) }
        var typeOffsets: [Int32] = []
        var typeIsDST: [Bool] = []
        for _ in 0..<header.typecnt {
            typeOffsets.append(try reader.int32())
            typeIsDST.append(try reader.byte() != 0)
            _ = try reader.byte()  // the designation's index
        }
        guard indices.allSatisfy({ $0 < typeOffsets.count }) else { throw FormatError("a transition names a missing type") }
        guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw FormatError("transitions out of order")
        }
        try reader.skip(header.charcnt)
        var footer: String? = nil
        if wide {
            try reader.skip(header.leapcnt * 12 + header.isstdcnt + header.isutcnt)
            guard try reader.byte() == 0x0A else { throw FormatError("no newline before the TZ string") }
            var text: [UInt8] = []
            while true {
                let c = try reader.byte()
                if c == 0x0A { break }
                text.append(c)
            }
            footer = String(decoding: text, as: UTF8.self)
        }
        self.transitions = transitions
        offsets = indices.map { typeOffsets[$0] }
        // zoneinfo: the first type that is not daylight time, else the first transition's
        if let standard = typeIsDST.firstIndex(of: false) {
            offsetBefore = typeOffsets[standard]
        } else {
            offsetBefore = offsets.first ?? typeOffsets.first ?? 0
        }
        if let footer, !footer.isEmpty {
            after = try TZStringRule.parse(footer)
        } else if let last = offsets.last ?? typeOffsets.last {
            after = .fixed(last)
        } else {
            throw FormatError("no local time types")
        }
    }

    /// The UTC offset in seconds at `milliseconds` since the Unix epoch.
    public func utcOffset(atMilliseconds milliseconds: Int64) -> Int32 {
        // whole seconds, rounded down (a datetime's seconds field)
        let t = milliseconds >= 0 ? milliseconds / 1000 : -((-(milliseconds + 1)) / 1000) - 1
        let n = transitions.count
        if n >= 1 && t < transitions[0] { return offsetBefore }
        if n == 0 || t > transitions[n - 1] {
            switch after {
            case .rule(let rule): return rule.offset(atUTC: t)
            case .fixed(let offset): if n == 0 { return offset }
            }
        }
        // the last transition at or before t (bisect_right - 1)
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        if n > 1 && t >= transitions[1] { return offsets[lo - 1] }
        if t > transitions[n - 1], case .fixed(let offset) = after { return offset }
        return offsets[0]
    }
}

/// A POSIX TZ string with daylight time (`EST5EDT,M3.2.0,M11.1.0`): the rule a TZif file gives
/// for the instants after its last transition. Parsed and applied as `zoneinfo`'s `_TZStr` does.
struct TZStringRule: Sendable, Hashable {
    /// UTC offsets (seconds east) of standard and daylight time.
    let standardOffset: Int32, daylightOffset: Int32
    let start: TransitionDate, end: TransitionDate

    /// When in a year daylight time starts or ends, in local time of the side it leaves.
    enum TransitionDate: Sendable, Hashable {
        /// `Mm.w.d`: day `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, day: Int, seconds: Int)
        /// `Jn` (1…365, February 29 never counted) or `n` (0…365): `julian` tells which.
        case dayOfYear(Int, julian: Bool, seconds: Int)
    }

    /// A TZ string without daylight time is a fixed offset; with it, a rule.
    static func parse(_ text: String) throws(TimeZoneRules.FormatError) -> TimeZoneRules.After {
        var s = Substring(text)
        func fail() -> TimeZoneRules.FormatError { TimeZoneRules.FormatError("TZ string \(text) cannot be read") }
        func name() throws(TimeZoneRules.FormatError) {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { throw fail() }
                s = s[s.index(after: close)...]
            } else {
                let end = s.firstIndex { $0.isNumber || "+-,:.".contains($0) } ?? s.endIndex
                guard end > s.startIndex else { throw fail() }
                s = s[end...]
            }
        }
        // [+-]h[:mm[:ss]]; with `maxHours` for an offset, as zoneinfo's limits
        func time(maxHours: Int) throws(TimeZoneRules.FormatError) -> Int {
            var sign = 1
            if s.first == "+" || s.first == "-" {
                if s.first == "-" { sign = -1 }
                s = s.dropFirst()
            }
            var parts: [Int] = []
            while true {
                let digits = s.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= (parts.isEmpty ? 3 : 2), let v = Int(digits) else { throw fail() }
                if !parts.isEmpty && digits.count != 2 { throw fail() }
                parts.append(v)
                s = s.dropFirst(digits.count)
                guard parts.count < 3, s.first == ":" else { break }
                s = s.dropFirst()
            }
            guard parts[0] <= maxHours else { throw fail() }
            return sign * (parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
        }
        func skip(_ c: Character) throws(TimeZoneRules.FormatError) {
            guard s.first == c else { throw fail() }
            s = s.dropFirst()
        }
        func number() throws(TimeZoneRules.FormatError) -> Int {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let v = Int(digits) else { throw fail() }
            s = s.dropFirst(digits.count)
            return v
        }
        // `Mm.w.d`, `Jn` or `n`, then `/time` (2:00 when absent)
        func date() throws(TimeZoneRules.FormatError) -> TransitionDate {
            if s.first == "M" {
                try skip("M")
                let m = try number()
                try skip(".")
                let w = try number()
                try skip(".")
                let d = try number()
                guard (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { throw fail() }
                return .monthWeekDay(month: m, week: w, day: d, seconds: try timeOfDay())
            }
            let julian = s.first == "J"
            if julian { try skip("J") }
            let n = try number()
            guard ((julian ? 1 : 0)...365).contains(n) else { throw fail() }
            return .dayOfYear(n, julian: julian, seconds: try timeOfDay())
        }
        func timeOfDay() throws(TimeZoneRules.FormatError) -> Int {
            guard s.first == "/" else { return 2 * 3600 }
            try skip("/")
            return try time(maxHours: 167)
        }
        try name()
        // POSIX offsets are west of Greenwich: EST5 is UTC-5
        let standard = s.isEmpty ? 0 : -(try time(maxHours: 24))
        if s.isEmpty { return .fixed(Int32(standard)) }
        try name()
        var daylight = standard + 3600
        if s.first != "," { daylight = -(try time(maxHours: 24)) }
        try skip(",")
        let start = try date()
        try skip(",")
        let end = try date()
        guard s.isEmpty else { throw fail() }
        return .rule(TZStringRule(standardOffset: Int32(standard), daylightOffset: Int32(daylight), start: start, end: end))
    }

    /// The offset at UTC second `t`: daylight time between the year's start (in standard time)
    /// and end (in daylight time), the year being `t`'s UTC year (as `zoneinfo` takes it).
    func offset(atUTC t: Int64) -> Int32 {
        let year = CivilYear.of(secondsSinceEpoch: t)
        let start = Self.epochSeconds(self.start, year: year) - Int64(standardOffset)
        let end = Self.epochSeconds(self.end, year: year) - Int64(daylightOffset)
        let daylight = start < end ? (start <= t && t < end) : !(end <= t && t < start)
        return daylight ? daylightOffset : standardOffset
    }

    /// The local-time instant (as epoch seconds) of `date` in `year`.
    static func epochSeconds(_ date: TransitionDate, year: Int) -> Int64 {
        let daysBeforeYear = CivilYear.daysBeforeYearSinceEpoch(year)  // day number of December 31 before `year`
        switch date {
        case .dayOfYear(var d, let julian, let seconds):
            if julian && d >= 59 && CivilYear.isLeap(year) { d += 1 }
            return Int64(daysBeforeYear + d) * 86_400 + Int64(seconds)
        case .monthWeekDay(let month, let week, let day, let seconds):
            // weekday of the month's first day, Monday 0 (Python's calendar.monthrange)
            let firstOrdinal = daysBeforeYear + CivilYear.daysBeforeMonth(month, year: year) + 1
            let firstWeekday = ((firstOrdinal + 3) % 7 + 7) % 7  // 1970-01-01 (day 0) was a Thursday
            var monthDay = ((day - (firstWeekday + 1)) % 7 + 7) % 7 + 1
            monthDay += (week - 1) * 7
            if monthDay > CivilYear.daysInMonth(month, year: year) { monthDay -= 7 }
            return Int64(daysBeforeYear + CivilYear.daysBeforeMonth(month, year: year) + monthDay) * 86_400 + Int64(seconds)
        }
    }
}

/// Proleptic Gregorian calendar arithmetic for the TZ rules.
enum CivilYear {
    static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    /// Days from 1970-01-01 to January 1 of `year`, minus one (zoneinfo's
    /// `_post_epoch_days_before_year`).
    static func daysBeforeYearSinceEpoch(_ year: Int) -> Int {
        let y = year - 1
        return y * 365 + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400) - 719_163
    }

    static func daysBeforeMonth(_ month: Int, year: Int) -> Int {
        let table = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        return table[month - 1] + (month > 2 && isLeap(year) ? 1 : 0)
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        let table = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return table[month - 1] + (month == 2 && isLeap(year) ? 1 : 0)
    }

    /// The UTC year of an instant (days from the civil-from-days algorithm of H. Hinnant,
    /// "chrono-Compatible Low-Level Date Algorithms", public domain).
    static func of(secondsSinceEpoch t: Int64) -> Int {
        let days = Int(floorDiv64(t, 86_400))
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorDiv64(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// Big-endian reads from a TZif file's bytes, each checked against its end.
private struct ByteReader {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Header { var version = 0, isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0 }

    mutating func header() throws(TimeZoneRules.FormatError) -> Header {
        guard try byte() == 0x54, try byte() == 0x5A, try byte() == 0x69, try byte() == 0x66 else {
            throw TimeZoneRules.FormatError("not a TZif file (no magic)")
        }
        let v = try byte()
        var h = Header()
        switch v {
        case 0: h.version = 1
        case UInt8(ascii: "2")...UInt8(ascii: "9"): h.version = Int(v - UInt8(ascii: "0"))
        default: throw TimeZoneRules.FormatError("unknown TZif version \(v)")
        }
        try skip(15)
        var counts: [Int] = []
        for _ in 0..<6 {
            let c = try int32()
            guard c >= 0, c < 1 << 20 else { throw TimeZoneRules.FormatError("implausible count \(c)") }
            counts.append(Int(c))
        }
        (h.isutcnt, h.isstdcnt, h.leapcnt, h.timecnt, h.typecnt, h.charcnt) = (counts[0], counts[1], counts[2], counts[3],
                                                                                counts[4], counts[5])
        return h
    }

    mutating func skip(_ n: Int) throws(TimeZoneRules.FormatError) {
        guard n >= 0, at + n <= bytes.count else { throw TimeZoneRules.FormatError("truncated") }
        at += n
    }

    mutating func byte() throws(TimeZoneRules.FormatError) -> UInt8 {
        guard at < bytes.count else { throw TimeZoneRules.FormatError("truncated") }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func int32() throws(TimeZoneRules.FormatError) -> Int32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(try byte()) }
        return Int32(bitPattern: v)
    }

    mutating func int64() throws(TimeZoneRules.FormatError) -> Int64 {
        var v: UInt64 = 0
        for _ in 0..<8 { v = v << 8 | UInt64(try byte()) }
        return Int64(bitPattern: v)
    }
}
