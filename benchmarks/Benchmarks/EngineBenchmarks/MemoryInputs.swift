import EnrichEngine
import Foundation
import BenchmarkSupport

/// The sessions of the memory benchmarks: many distinct sessions, one fix each.
enum MemoryInputs {
    /// Live sessions the issue's memory target is stated for.
    static let liveSessions = 1_000_000

    /// Sessions added per iteration of a memory benchmark: the sampling interval.
    static let sessionsPerIteration = 250_000

    /// Iterations of the endless run: the first million sessions (warm-up, the table growing to
    /// its steady size), then four million more, sampled every ``sessionsPerIteration``.
    static let endlessWarmupIterations = 4
    static let endlessIterations = 16

    /// New sessions per second of stream time in the live-sessions runs: a million within 50 s,
    /// less than one expiry, so the table evicts nothing while it fills.
    static let liveSessionsPerSecond: Int64 = 20_000

    /// New sessions per second of stream time in the endless run: one per millisecond, so with
    /// the default rules about 120,000 to 180,000 are live at once (eviction after 120 s, a
    /// sweep every 60 s).
    static let endlessSessionsPerSecond: Int64 = 1_000

    /// The stream's start, `gen_stream.py`'s T0 (2025-11-27T10:00:00Z).
    static let start: Int64 = 1_764_237_600_000

    /// `gen_stream.py`'s city boxes: (latitude, longitude, spread in degrees of latitude).
    static let cities: [(Double, Double, Double)] = [
        (43.6532, -79.3832, 0.15), (45.5019, -73.5674, 0.12), (49.2827, -123.1207, 0.10),
        (51.0447, -114.0719, 0.12), (49.8951, -97.1384, 0.08), (44.6488, -63.5752, 0.06),
        (45.4215, -75.6972, 0.08), (53.5461, -113.4938, 0.10), (46.8139, -71.2080, 0.06),
        (50.4452, -104.6189, 0.05), (47.5615, -52.7126, 0.04), (60.7212, -135.0568, 0.03),
    ]

    /// A fix at a uniform point of a uniformly chosen city box, taken at `time`.
    static func fix(at time: Int64, using rng: inout SplitMix64) -> Fix {
        let (lat, lng, spread) = cities[Int(rng.nextUnit() * Double(cities.count))]
        let latitude = lat + (2 * rng.nextUnit() - 1) * spread
        let longitude = lng + (2 * rng.nextUnit() - 1) * spread / cos(lat * Double.pi / 180)
        return try! Fix(latitude: latitude, longitude: longitude, accuracy: 10, timestamp: Timestamp(milliseconds: time))
    }

    /// How the ids of a memory benchmark look.
    enum IDForm {
        /// `s-0000042`, 9 bytes, as `gen_stream.py`'s `s-000042`: short enough for `String` to
        /// keep inline, so an id costs no allocation.
        case short
        /// `0E6614B7-20230526-062238846`, 27 bytes, the clickstream SDK's form (last 8 hex digits
        /// of the device id, date, time in ms): a heap-allocated string per session.
        case clickstream
    }

    /// The `n`-th session id of `form`.
    static func id(_ n: Int, form: IDForm) -> SessionID {
        switch form {
        case .short:
            return SessionID("s-" + String(repeating: "0", count: max(0, 7 - String(n).count)) + String(n))!
        case .clickstream:
            var rng = SplitMix64(seed: UInt64(n))
            let device = String(rng.next() >> 32, radix: 16, uppercase: true)
            let padded = String(repeating: "0", count: 8 - device.count) + device
            let ms = String(n % 1_000_000_000)
            return SessionID("\(padded)-20251127-\(String(repeating: "0", count: 9 - ms.count))\(ms)")
        }
    }

}

/// A table filled with new sessions, one fix each, ``MemoryInputs/sessionsPerIteration`` per
/// call, as a memory benchmark's iterations go; resident memory is measured against what the
/// process held when the fill was made (the enricher open, no table yet).
final class SessionFill {
    private var table: SessionTable<ConstantEnricher>
    private let form: MemoryInputs.IDForm
    private let sessionsPerSecond: Int64
    private var rng = SplitMix64(seed: 0x6D65_6D6F_7279) // "memory"
    private(set) var sessions = 0
    let baseline: Int

    /// - Parameters:
    ///   - form: how the ids look.
    ///   - sessionsPerSecond: new sessions per second of stream time.
    init(form: MemoryInputs.IDForm, sessionsPerSecond: Int64) throws {
        let enricher = try ConstantEnricher()
        self.form = form
        self.sessionsPerSecond = sessionsPerSecond
        baseline = ResidentMemory.current()
        ResidentMemory.resetPeak()
        table = SessionTable(configuration: EngineConfiguration(), enricher: enricher)
    }

    /// Adds ``MemoryInputs/sessionsPerIteration`` sessions; ids and fixes are made here, as a
    /// parser would make them, so a heap-allocated id counts.
    func fill() {
        for _ in 0..<MemoryInputs.sessionsPerIteration {
            let time = MemoryInputs.start + Int64(sessions) * 1_000 / sessionsPerSecond
            _ = table.ingest(MemoryInputs.fix(at: time, using: &rng), session: MemoryInputs.id(sessions, form: form))
            sessions += 1
        }
    }

    var liveSessions: Int { table.liveSessions }
}
