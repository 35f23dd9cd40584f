#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoModel

/// The UTC offsets of every zone the time-zone lookup can answer (``TimeZoneID``), read from the
/// system's tz database: the same files Python's `zoneinfo` reads, so an offset is the one it
/// gives for the zone at that instant (see ``TimeZoneRules``).
///
/// All zones are read when it is opened (444 TZif files, about 0.5 MB, a few milliseconds), so a
/// zone missing from the database is found before any record is read rather than in the middle
/// of a run; afterwards it is immutable and shared by every thread.
public final class TimeZoneDatabase: Sendable {
    /// Where the TZif files were read from.
    public let directory: String
    /// Each zone's rules, at its ``TimeZoneID/rawValue``.
    private let rules: [TimeZoneRules]

    /// The system's tz database: `$TZDIR` when it is set (as the C library and `zoneinfo` take
    /// it), else `/usr/share/zoneinfo`.
    public static var systemDirectory: String {
        if let dir = getenv("TZDIR"), dir.pointee != 0 { return String(cString: dir) }
        return "/usr/share/zoneinfo"
    }

    /// Reads the TZif file of every zone in ``TimeZoneID/names`` under `directory`.
    ///
    /// - Throws: ``DataFileError`` with reason ``DataFileError/Reason/timeZoneDatabase(_:)``
    ///   naming the first zone's file that is missing or not a TZif file.
    public init(directory: String = TimeZoneDatabase.systemDirectory) throws(DataFileError) {
        self.directory = directory
        var rules: [TimeZoneRules] = []
        rules.reserveCapacity(TimeZoneID.count)
        for raw in 0..<TimeZoneID.count {
            let name = TimeZoneID(unchecked: UInt16(raw)).name
            let path = directory + "/" + name
            let bytes: [UInt8]
            switch Self.contents(of: path) {
            case .success(let b): bytes = b
            case .failure(let message): throw DataFileError(path: path, .timeZoneDatabase("cannot be read: \(message)"))
            }
            do {
                rules.append(try TimeZoneRules(tzif: bytes))
            } catch {
                throw DataFileError(path: path, .timeZoneDatabase("is not a usable TZif file: \(error.description)"))
            }
        }
        self.rules = rules
    }

    /// The rules of one zone.
    public func rules(of zone: TimeZoneID) -> TimeZoneRules { rules[Int(zone.rawValue)] }

    /// The UTC offset in seconds (east positive) of `zone` at `milliseconds` since the Unix
    /// epoch, as `zoneinfo` gives it.
    ///
    /// - Complexity: O(log n) in the zone's transitions (a binary search; at most a few hundred).
    public func utcOffset(of zone: TimeZoneID, atMilliseconds milliseconds: Int64) -> Int32 {
        rules[Int(zone.rawValue)].utcOffset(atMilliseconds: milliseconds)
    }

    /// A whole file's bytes, or the system's message.
    private static func contents(of path: String) -> Result<[UInt8], ReadFailure> {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(ReadFailure(errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno))
            }
            if n == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    private struct ReadFailure: Error, CustomStringConvertible {
        let description: String
        init(_ code: Int32) { description = String(cString: strerror(code)) }
    }
}
