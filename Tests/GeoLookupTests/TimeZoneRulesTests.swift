import Foundation
import Testing
@testable import GeoLookup

/// Offsets from the system's tz database, as Python's `zoneinfo` gives them. The expected values
/// were taken from `zoneinfo` (CPython 3.11, Debian tzdata 2025b): `datetime(1970, 1, 1, tzinfo=UTC)
/// + timedelta(milliseconds=t)`, `.astimezone(ZoneInfo(name)).utcoffset()`.
@Suite struct TimeZoneRulesTests {
    static func rules(_ name: String) throws -> TimeZoneRules {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name),
                                 "the system's tz database (Debian's tzdata) has no \(name)")
        return try TimeZoneRules(tzif: [UInt8](bytes))
    }

    /// A change of offset: one millisecond before it, and at it.
    @Test(arguments: [
        ("America/New_York", Int64(1_741_503_600_000), Int32(-18_000), Int32(-14_400)),   // 2025 spring forward
        ("America/New_York", 1_762_063_200_000, -14_400, -18_000),                      // 2025 fall back
        ("Australia/Sydney", 1_933_171_200_000, 39_600, 36_000),                        // 2031, by the TZ string
        ("Australia/Sydney", 1_948_896_000_000, 36_000, 39_600),
        ("Europe/London", 2_342_653_200_000, 0, 3_600),                                 // 2044
        ("America/Detroit", -2_208_988_800_000, -19_931, -19_931),                      // local mean time, 1900
        ("Asia/Tehran", 1_748_736_000_000, 12_600, 12_600),
        ("Pacific/Chatham", 2_232_626_400_000, 49_500, 49_500),
    ])
    func theOffsetChangesAtItsSecond(zone: String, at: Int64, before: Int32, after: Int32) throws {
        let rules = try Self.rules(zone)
        #expect(rules.utcOffset(atMilliseconds: at - 1) == before, "\(zone) at \(at - 1)")
        #expect(rules.utcOffset(atMilliseconds: at) == after, "\(zone) at \(at)")
    }

    @Test func tzStringsAreReadAsZoneinfoReadsThem() throws {
        #expect(try TZStringRule.parse("<+0330>-3:30") == .fixed(12_600))
        #expect(try TZStringRule.parse("EST5") == .fixed(-18_000))
        guard case .rule(let r) = try TZStringRule.parse("EST5EDT,M3.2.0,M11.1.0") else {
            Issue.record("EST5EDT has daylight time")
            return
        }
        #expect(r.standardOffset == -18_000 && r.daylightOffset == -14_400)
        #expect(r.start == .monthWeekDay(month: 3, week: 2, day: 0, seconds: 7_200))
        for bad in ["EST5EDT", "EST5EDT,M13.1.0,M11.1.0", "EST25", "EST5EDT,M3.2.0/168,M11.1.0", "5EST"] {
            #expect(throws: TimeZoneRules.FormatError.self, "\(bad)") { try TZStringRule.parse(bad) }
        }
    }

    @Test func aDamagedFileIsRefused() throws {
        let good = [UInt8](try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Paris")))
        for cut in [0, 3, 30, good.count / 2, good.count - 2] {
            #expect(throws: TimeZoneRules.FormatError.self, "cut at \(cut)") { try TimeZoneRules(tzif: Array(good[..<cut])) }
        }
        var wrongMagic = good
        wrongMagic[0] = 0x58
        #expect(throws: TimeZoneRules.FormatError.self) { try TimeZoneRules(tzif: wrongMagic) }
    }

    /// Every zone of the lookup's table is read at open; the offsets are its rules'.
    @Test func theDatabaseHoldsEveryZoneOfTheLookup() throws {
        let database = try TimeZoneDatabase(directory: "/usr/share/zoneinfo")
        let newYork = try #require(TimeZoneID(name: "America/New_York"))
        #expect(database.utcOffset(of: newYork, atMilliseconds: 1_741_503_600_000 - 1) == -18_000)
        #expect(database.utcOffset(of: newYork, atMilliseconds: 1_741_503_600_000) == -14_400)
        let ocean = try #require(TimeZoneID(name: "Etc/GMT+3"))  // POSIX sign: three hours west
        #expect(database.utcOffset(of: ocean, atMilliseconds: 0) == -10_800)
        #expect(database.rules(of: newYork) == (try Self.rules("America/New_York")))
    }

    /// A database without a zone, or with a damaged one, is refused when it is opened, naming
    /// the file and what to do.
    @Test func aMissingOrDamagedZoneIsNamedAtOpen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tzdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try TimeZoneDatabase(directory: dir.path)
            Issue.record("an empty folder was accepted")
        } catch {
            #expect(error.path == dir.path + "/Africa/Abidjan")
            #expect("\(error)".contains("cannot be read") && "\(error)".contains("tzdata"), "\(error)")
        }
        // every zone present but one damaged
        for raw in 0..<UInt16(TimeZoneID.count) {
            let name = TimeZoneID(rawValue: raw)!.name
            let target = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            var bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name))
            if name == "Europe/Paris" { bytes = bytes.prefix(30) }
            try bytes.write(to: target)
        }
        do {
            _ = try TimeZoneDatabase(directory: dir.path)
            Issue.record("a damaged zone was accepted")
        } catch {
            #expect(error.path.hasSuffix("/Europe/Paris") && "\(error)".contains("not a usable TZif file"), "\(error)")
        }
    }
}
