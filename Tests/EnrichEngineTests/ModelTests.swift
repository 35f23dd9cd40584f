import GeoBridge
import Testing
import TestSupport

@testable import EnrichEngine

/// The engine against a naive reference written here from the contract (a list of accepted
/// fixes per session, PROJ's geodesic for every distance), on random streams.
@Suite("Model: the engine decides as a naive reference does")
struct ModelTests {
    struct Record {
        var session: SessionID
        var time: Int64
        var consent: Consent?
        var fix: Fix?  // nil: an event
    }

    enum Outcome: Equatable {
        case decision(FixDecision)
        case attachment(Int64?, Double?, Double?)  // age, latitude, longitude of the attached fix
    }

    /// The contract, naively: rules 1–4 and 7 with PROJ for every distance.
    struct Reference {
        var configuration: EngineConfiguration
        var history: [SessionID: [Fix]] = [:]
        var optedOut: Set<SessionID> = []

        mutating func run(_ r: Record) -> Outcome {
            switch r.consent {
            case .optOut?: optedOut.insert(r.session); history[r.session] = nil
            case .notSet? where configuration.consentNotSet == .deny: optedOut.insert(r.session); history[r.session] = nil
            case .optIn?: optedOut.remove(r.session)
            case .notSet?: break  // allowed: an opt-out stays until optIn, as in the peer
            case nil: break
            }
            let hist = history[r.session] ?? []
            guard let f = r.fix else {
                for old in hist.reversed() where old.timestamp.milliseconds <= r.time {
                    let age = r.time - old.timestamp.milliseconds
                    return age < configuration.expiry ? .attachment(age, old.latitudeDegrees, old.longitudeDegrees) : .attachment(nil, nil, nil)
                }
                return .attachment(nil, nil, nil)
            }
            if optedOut.contains(r.session) { return .decision(.rejected(.consent)) }
            if let m = configuration.maxAccuracy, let a = f.accuracy?.doubleValue, a > m { return .decision(.rejected(.accuracy)) }
            if let last = hist.last {
                if f.timestamp < last.timestamp { return .decision(.rejected(.stale)) }
                if f.timestamp.milliseconds - last.timestamp.milliseconds < configuration.expiry {
                    let d = Geodesic.wgs84.distance(from: GeoPoint(latitude: last.latitudeDegrees, longitude: last.longitudeDegrees),
                                                    to: GeoPoint(latitude: f.latitudeDegrees, longitude: f.longitudeDegrees))
                    if d < configuration.distanceFilter { return .decision(.rejected(.distance)) }
                }
            }
            var h = hist + [f]
            h.removeAll { $0.timestamp.milliseconds < f.timestamp.milliseconds - 2 * configuration.expiry }
            history[r.session] = h
            return .decision(.accepted(Enrichment(latitude: 0, longitude: 0, accuracy: nil, fixTimestamp: f.timestamp,
                                                  h3: try! .init(string: "8f271c973aa4594"), country: nil, postal: nil)))
        }
    }

    static func outcome(_ table: inout SessionTable<H3OnlyEnricher>, _ r: Record) -> Outcome {
        if let f = r.fix {
            switch table.ingest(f, session: r.session, consent: r.consent) {
            case .accepted(let e):
                // compare decisions only (the reference does not enrich)
                return .decision(.accepted(Enrichment(latitude: 0, longitude: 0, accuracy: nil, fixTimestamp: e.fixTimestamp,
                                                      h3: try! .init(string: "8f271c973aa4594"), country: nil, postal: nil)))
            case .rejected(let why): return .decision(.rejected(why))
            }
        }
        let a = table.attach(session: r.session, at: Timestamp(milliseconds: r.time), consent: r.consent)
        return .attachment(a?.ageMilliseconds, a?.enrichment.latitudeDegrees, a?.enrichment.longitudeDegrees)
    }

    /// Sessions wandering around a few points, steps near the 100 m threshold, consent changes,
    /// gaps longer than the expiry, and (unless `ordered`) out-of-order records.
    ///
    /// - Parameter sessionCount: 12 by default; thousands make the table's index grow, collide
    ///   and shift entries back on opt-outs and evictions.
    static func stream(seed: UInt64, count: Int, ordered: Bool, sessions sessionCount: Int = 12) -> [Record] {
        var rng = SplitMix64(seed: seed)
        var records: [Record] = []
        let sessions = (0..<sessionCount).map { SessionID("s-\($0)") }
        var clock = [Int64](repeating: 1_764_237_600_000, count: sessions.count)
        var position = (0..<sessions.count).map { i in
            let lng = (Double(i) * 0.5 - 3).truncatingRemainder(dividingBy: 360)
            return (Double([0.0, 45.0, 69.0, -33.9][i % 4]), lng > 180 ? lng - 360 : lng)
        }
        for _ in 0..<count {
            let i = Int(rng.next() % UInt64(sessions.count))
            var gap = Int64([0, 500, 1_000, 5_000, 20_000, 59_999, 60_000][Int(rng.next() % 7)])
            if rng.next() % 50 == 0 { gap = 130_000 }
            if !ordered && rng.next() % 8 == 0 { gap = -Int64(rng.next() % 90_000) }
            clock[i] += gap
            let consent: Consent? = switch rng.next() % 40 { case 0: .optOut; case 1: .optIn; case 2: .notSet; default: nil }
            if rng.next() % 2 == 0 {
                // a step of about 100 m (often within a metre of it), in a random direction
                let metres = [99.5, 99.9, 100.0, 100.1, 100.5, 30, 250][Int(rng.next() % 7)]
                let bearing = Double(rng.next() % 360) * .pi / 180
                let lat = position[i].0 + metres / 111_000 * cosine(bearing)
                let lng = position[i].1 + metres / (111_000 * max(cosine(lat * .pi / 180), 0.1)) * sine(bearing)
                position[i] = (min(max(lat, -89), 89), lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng)
                let acc: Double? = rng.next() % 3 == 0 ? nil : Double(rng.next() % 200)
                let f = try! Fix(latitude: position[i].0, longitude: position[i].1, accuracy: acc,
                                 timestamp: Timestamp(milliseconds: clock[i]))
                records.append(Record(session: sessions[i], time: clock[i], consent: consent, fix: f))
            } else {
                records.append(Record(session: sessions[i], time: clock[i], consent: consent, fix: nil))
            }
        }
        if ordered { records.sort { $0.time < $1.time } }
        return records
    }

    @Test("identical decisions and attachments on random streams", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func model(seed: UInt64) {
        var c = EngineConfiguration()
        c.maxAccuracy = seed % 2 == 0 ? 150 : nil
        c.consentNotSet = seed % 3 == 0 ? .deny : .allow
        c.evictAfter = Int64.max / 4  // no eviction here: out-of-order records are allowed
        var table = SessionTable(configuration: c, enricher: H3OnlyEnricher())
        var reference = Reference(configuration: c)
        var mismatches = 0
        var seen: [String: Int] = [:]
        for (n, r) in Self.stream(seed: seed, count: 20_000, ordered: false).enumerated() {
            let got = Self.outcome(&table, r)
            let want = reference.run(r)
            switch want {
            case .decision(.accepted): seen["accepted", default: 0] += 1
            case .decision(.rejected(let why)): seen[why.rawValue, default: 0] += 1
            case .attachment(let age, _, _): seen[age == nil ? "bare" : "attached", default: 0] += 1
            }
            if got != want {
                mismatches += 1
                if mismatches <= 10 { Issue.record("record \(n) \(r.session) t=\(r.time): engine \(got), reference \(want)") }
            }
        }
        #expect(mismatches == 0)
        // the streams exercise every rule, not just the easy ones
        for key in ["accepted", "distance", "stale", "consent", "attached", "bare"] {
            #expect(seen[key, default: 0] >= 50, "\(key): \(seen[key, default: 0])")
        }
        if c.maxAccuracy != nil { #expect(seen["accuracy", default: 0] >= 50) }
    }

    @Test("identical decisions and attachments with thousands of sessions", arguments: [10, 11] as [UInt64])
    func manySessions(seed: UInt64) {
        var c = EngineConfiguration()
        c.evictAfter = Int64.max / 4  // out-of-order records: no eviction
        var table = SessionTable(configuration: c, enricher: H3OnlyEnricher())
        var reference = Reference(configuration: c)
        var mismatches = 0
        var peak = 0
        for (n, r) in Self.stream(seed: seed, count: 60_000, ordered: false, sessions: 3_000).enumerated() {
            let got = Self.outcome(&table, r)
            let want = reference.run(r)
            if got != want {
                mismatches += 1
                if mismatches <= 10 { Issue.record("record \(n) \(r.session) t=\(r.time): engine \(got), reference \(want)") }
            }
            peak = max(peak, table.liveSessions)
        }
        #expect(mismatches == 0)
        #expect(peak > 2_000)  // the index grew well past its first sizes
        #expect(table.liveSessions == reference.history.count(where: { !$0.value.isEmpty }))
    }

    /// The stream's runner asks the table to prefetch sessions records ahead; a hint must change
    /// nothing, whatever it is asked for: the sessions coming, others, unknown hashes, none.
    @Test("prefetching changes no decision", arguments: [12, 13] as [UInt64])
    func prefetchChangesNothing(seed: UInt64) {
        let c = Self.evictingAlways
        var plain = SessionTable(configuration: c, enricher: H3OnlyEnricher())
        var hinted = SessionTable(configuration: c, enricher: H3OnlyEnricher())
        let records = Self.stream(seed: seed, count: 30_000, ordered: true, sessions: 2_000)
        var mismatches = 0
        var peak = 0
        for (n, r) in records.enumerated() {
            let ahead = records[min(n + 8, records.count - 1)].session.stableHash
            let soon = records[min(n + 4, records.count - 1)].session.stableHash
            switch n % 4 {
            case 0: hinted.prefetch(slotOf: ahead, stateOf: soon)
            case 1: hinted.prefetch(slotOf: 0, stateOf: 0)
            case 2: hinted.prefetch(slotOf: ~ahead, stateOf: soon &* 3)  // ids no session has
            default: hinted.prefetch(slotOf: soon, stateOf: r.session.stableHash)
            }
            if Self.outcome(&plain, r) != Self.outcome(&hinted, r) { mismatches += 1 }
            #expect(plain.liveSessions == hinted.liveSessions)
            peak = max(peak, hinted.liveSessions)
        }
        #expect(mismatches == 0)
        #expect(peak > 500)  // many sessions, and evictions that move states under the hints
    }

    /// The default rules, evicting whenever the rule allows (no threshold of live sessions).
    static var evictingAlways: EngineConfiguration {
        var c = EngineConfiguration()
        c.evictionThreshold = 0
        return c
    }

    @Test("eviction never changes the output of a time-ordered stream", arguments: [7, 8, 9] as [UInt64])
    func eviction(seed: UInt64) {
        var keep = EngineConfiguration()
        keep.evictAfter = Int64.max / 4
        var evicting = SessionTable(configuration: Self.evictingAlways, enricher: H3OnlyEnricher())
        var keeping = SessionTable(configuration: keep, enricher: H3OnlyEnricher())
        var evictions = 0
        var previous = 0
        for r in Self.stream(seed: seed, count: 30_000, ordered: true) {
            #expect(Self.outcome(&evicting, r) == Self.outcome(&keeping, r))
            if evicting.liveSessions < previous { evictions += 1 }
            previous = evicting.liveSessions
        }
        #expect(evictions > 0)  // the stream's long gaps did make the sweep evict
    }

    @Test("eviction never changes the output with thousands of sessions, a few or many at a time",
          arguments: [12, 13] as [UInt64])
    func evictionManySessions(seed: UInt64) {
        var keep = EngineConfiguration()
        keep.evictAfter = Int64.max / 4
        var evicting = SessionTable(configuration: Self.evictingAlways, enricher: H3OnlyEnricher())
        var keeping = SessionTable(configuration: keep, enricher: H3OnlyEnricher())
        var mismatches = 0
        var fewAtATime = 0, manyAtATime = 0
        var previous = 0
        for r in Self.stream(seed: seed, count: 60_000, ordered: true, sessions: 2_000) {
            if Self.outcome(&evicting, r) != Self.outcome(&keeping, r) { mismatches += 1 }
            let evicted = previous - evicting.liveSessions
            // the sweep removes up to 1/8 of the sessions one by one, more in bulk
            if evicted > 1 && 8 * evicted <= previous { fewAtATime += 1 }
            if evicted > 1 && 8 * evicted > previous { manyAtATime += 1 }
            previous = evicting.liveSessions
        }
        #expect(mismatches == 0)
        #expect(fewAtATime > 0)
        #expect(manyAtATime > 0)
    }
}
