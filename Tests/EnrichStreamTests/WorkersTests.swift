import EnrichStream
import Foundation
import GeoBridge
import GeoLookup
import RecordCodec
import Testing
import TestSupport

/// Several workers give the bytes one worker gives: the parallel runner only partitions and
/// keeps order. Run under the thread sanitizer by the test command, this is also the stream's
/// race check.
@Suite struct WorkersTests {
    /// A seeded stream of many sessions in `format`: fixes wandering around Canadian and US
    /// cities, events, consent changes, bad lines and blank lines, times mostly rising.
    static func stream(_ format: RecordFormat, lines: Int, sessions: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let cities = [(49.8951, -97.1384), (43.6532, -79.3832), (45.5019, -73.5674), (49.2827, -123.1207),
                      (40.7128, -74.0060), (41.8781, -87.6298), (53.5461, -113.4938), (46.8139, -71.2080)]
        var time: Int64 = 1_764_237_600_000
        var out = ""
        for _ in 0..<lines {
            time += Int64.random(in: -200...400, using: &rng)
            let session = "s-\(Int.random(in: 0..<sessions, using: &rng))"
            let roll = Int.random(in: 0..<100, using: &rng)
            let consent = roll < 3 ? #","consent":"optOut""# : roll < 6 ? #","consent":"optIn""# : ""
            if roll < 2 {
                out += #"{"session_id":"\#(session)","timestamp":"#  // broken JSON
            } else if roll < 4 {
                out += "   "
            } else if roll < 50 {
                let city = cities[Int.random(in: 0..<cities.count, using: &rng)]
                let lat = city.0 + Double.random(in: -0.05...0.05, using: &rng)
                let lng = city.1 + Double.random(in: -0.05...0.05, using: &rng)
                switch format {
                case .canonical:
                    out += #"{"type":"location","session_id":"\#(session)","timestamp":\#(time),"latitude":\#(lat),"longitude":\#(lng),"accuracy":\#(roll)\#(consent)}"#
                case .eqworks:
                    out += #"{"cmd":"logEvent","userId":"\#(session)","timestamp":\#(time),"location":{"latitude":\#(lat),"longitude":\#(lng)}\#(consent)}"#
                case .mobiletracker, .datacloud:
                    out += #"{"latitude":\#(lat),"longitude":\#(lng),"accuracy":\#(roll),"session_id":"\#(session)","timestamp":\#(time)\#(consent)}"#
                }
            } else {
                switch format {
                case .canonical:
                    out += #"{"type":"track","session_id":"\#(session)","timestamp":\#(time)\#(consent)}"#
                case .eqworks:
                    out += #"{"cmd":"logEvent","userId":"\#(session)","timestamp":\#(time),"name":"x"\#(consent)}"#
                case .mobiletracker:
                    out += #"{"brand_id":1,"session_id":"\#(session)","event_name":"x","data":{},"timestamp":\#(time)\#(consent)}"#
                case .datacloud:
                    out += #"{"event_name":"x","session_id":"\#(session)","timestamp":\#(time)\#(consent)}"#
                }
            }
            out += "\n"
        }
        return Array(out.utf8)
    }

    /// The first line where `a` and `b` differ, with both texts; `nil` when they are equal.
    static func firstDifference(_ a: [[UInt8]], _ b: [[UInt8]]) -> String? {
        for (n, (x, y)) in zip(a, b).enumerated() where x != y {
            return "line \(n + 1): \(String(decoding: x, as: UTF8.self)) against \(String(decoding: y, as: UTF8.self))"
        }
        return a.count == b.count ? nil : "\(a.count) lines against \(b.count)"
    }

    @Test(arguments: RecordFormat.allCases)
    func severalWorkersWriteWhatOneWrites(format: RecordFormat) throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WorkersTests \(format) seed \(seed)")
        let input = Self.stream(format, lines: 40_000, sessions: 5_000, seed: seed)
        func run(workers: Int) throws -> StreamRun {
            var options = EnrichOptions()
            options.format = format
            options.workers = workers
            options.emitRejected = true
            // small batches: many of them, each large enough to be processed in parallel
            options.batchBytes = 1 << 16
            return try StreamRun.run([input], options: options)
        }
        let one = try run(workers: 1)
        #expect(one.statistics.lines > 35_000 && one.statistics.fixesAccepted > 1_000 && one.statistics.errors > 100,
                "seed \(seed)")
        #expect(one.statistics.reconciles)
        for workers in [2, 4, 3] {
            let many = try run(workers: workers)
            // the first line that differs, not the whole outputs (megabytes) in the report
            #expect(Self.firstDifference(many.outputLines, one.outputLines) == nil, "\(workers) workers, seed \(seed)")
            #expect(Self.firstDifference(many.errorLines, one.errorLines) == nil, "\(workers) workers, seed \(seed)")
            #expect(many.statistics == one.statistics, "\(workers) workers, seed \(seed)")
        }
    }

    /// With fences, several workers turn lists into handles in one shared table at once (under
    /// its lock) and read them back without it (``GeoModel/GeofenceListTable``): the output is
    /// still one worker's, and under the thread sanitizer this is that table's race check.
    /// 600 overlapping circles and squares around the stream's cities, so that most fixes are in
    /// two or more fences, each new list interned by whichever worker meets it first.
    @Test func severalWorkersWithFencesWriteWhatOneWrites() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("WorkersTests fences seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let cities = [(49.8951, -97.1384), (43.6532, -79.3832), (45.5019, -73.5674), (49.2827, -123.1207),
                      (40.7128, -74.0060), (41.8781, -87.6298), (53.5461, -113.4938), (46.8139, -71.2080)]
        var fences: [Geofence] = []
        for k in 0..<600 {
            let city = cities[k % cities.count]
            let lat = city.0 + Double.random(in: -0.05...0.05, using: &rng)
            let lng = city.1 + Double.random(in: -0.05...0.05, using: &rng)
            let size = Double.random(in: 0.005...0.04, using: &rng)
            if k % 2 == 0 {
                fences.append(Geofence(id: "c\(k)", shape: .circle(center: GeoPoint(latitude: lat, longitude: lng),
                                                                     radiusMetres: size * 111_000)))
            } else {
                let ring = [GeoPoint(latitude: lat - size, longitude: lng - size), GeoPoint(latitude: lat - size, longitude: lng + size),
                            GeoPoint(latitude: lat + size, longitude: lng + size), GeoPoint(latitude: lat + size, longitude: lng - size),
                            GeoPoint(latitude: lat - size, longitude: lng - size)]
                fences.append(Geofence(id: "p\(k)", shape: .polygons([[ring]])))
            }
        }
        let input = Self.stream(.canonical, lines: 30_000, sessions: 3_000, seed: seed)
        // a fresh set (and so a fresh, empty list table) for each run: the workers intern the
        // lists themselves, at the same time
        func run(workers: Int) throws -> (StreamRun, LocationLookup) {
            let lookup = try LocationLookup(dataDirectory: StreamRun.repositoryRoot.appendingPathComponent("data").path,
                                            geofences: GeofenceSet(fences: fences))
            var options = EnrichOptions()
            options.workers = workers
            options.batchBytes = 1 << 16
            return (try StreamRun.run([input], options: options, lookup: lookup), lookup)
        }
        let (one, lookup) = try run(workers: 1)
        let inTwoOrMore = one.outputLines.filter { line in
            guard let range = line.firstRange(of: Array(#""geofences":["#.utf8)) else { return false }
            return line[range.upperBound...].prefix { $0 != UInt8(ascii: "]") }.contains(UInt8(ascii: ","))
        }.count
        #expect(inTwoOrMore > 1_000, "lines with a list of two or more fences: \(inTwoOrMore), seed \(seed)")
        #expect(lookup.geofences!.lists.internedLists > 100, "seed \(seed)")
        for workers in [2, 3] {
            let (many, _) = try run(workers: workers)
            #expect(Self.firstDifference(many.outputLines, one.outputLines) == nil, "\(workers) workers, seed \(seed)")
            #expect(many.statistics == one.statistics, "\(workers) workers, seed \(seed)")
        }
    }
}
