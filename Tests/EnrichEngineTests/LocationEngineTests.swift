import Foundation
import GeoLookup
import Testing
import TestSupport

@testable import EnrichEngine

@Suite("LocationEngine: sharded, thread-safe, with the real enrichment")
struct LocationEngineTests {
    static let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data").path

    @Test("an accepted fix carries its H3 cell, country and postal code; an event gets it")
    func enrichment() throws {
        let engine = try LocationEngine.standard(lookup: LocationLookup(dataDirectory: Self.dataDirectory))
        let s = sid("s-42")
        guard case .accepted(let e) = engine.ingest(fix(49.888171, -97.131112, at: 1_764_237_600_000, accuracy: 12.5), session: s)
        else { Issue.record("not accepted"); return }
        // the EQWorks seed's h3Index and FSA for this fix; the postal code and distance are the
        // contract's example output
        #expect(e.h3.description == "8f271c973aa4594")
        #expect(e.country?.description == "CA")
        #expect(e.postal?.code.formatted == "R3C 4L9")
        #expect(e.postal?.distanceMetres == 19.7)
        let a = engine.attach(session: s, at: ts(1_764_237_612_000))
        #expect(a?.ageMilliseconds == 12_000)
        #expect(a?.enrichment == e)
        #expect(engine.attach(session: sid("other"), at: ts(1_764_237_612_000)) == nil)
    }

    /// Regression: `LocationEngine.standard` built its enrichers with the lookup's 20 km and
    /// ignored `EngineConfiguration.postalMaxDistance` (set to 5 m, the fix 19.7 m from the
    /// centroid of R3C 4L9 still got it).
    @Test("the configuration's postal maximum distance is the one the enrichment uses")
    func postalMaxDistance() throws {
        let lookup = try LocationLookup(dataDirectory: Self.dataDirectory)  // its own default: 20 km
        func postal(within metres: Double) throws -> PostalMatch? {
            var configuration = EngineConfiguration()
            configuration.postalMaxDistance = metres
            let engine = try LocationEngine.standard(configuration: configuration, lookup: lookup, shardCount: 1)
            guard case .accepted(let e) = engine.ingest(fix(49.888171, -97.131112, at: 1_764_237_600_000, accuracy: 12.5),
                                                        session: sid("s"))
            else { Issue.record("not accepted"); return nil }
            #expect(e.country?.description == "CA")
            return e.postal
        }
        #expect(try postal(within: 5) == nil)
        #expect(try postal(within: 19) == nil)
        #expect(try postal(within: 20)?.code.formatted == "R3C 4L9")
        #expect(try postal(within: 20_000)?.distanceMetres == 19.7)
        // and a lookup opened with a small limit does not cap the engine's larger one
        let tight = try LocationLookup(dataDirectory: Self.dataDirectory, postalMaxDistance: 5)
        var configuration = EngineConfiguration()
        configuration.postalMaxDistance = 100
        var enricher = try StandardEnricher(lookup: tight, configuration: configuration)
        let winnipeg = ReportedPosition(latitude: .double(49.888171), longitude: .double(-97.131112), accuracy: nil)
        #expect(enricher.enrich(winnipeg, at: ts(0)).postal?.code.formatted == "R3C 4L9")
    }

    /// The stream's partitions share their worker's locator (`StandardEnricher.use`). Points
    /// along the Canada–US border and the coasts of both, where the country comes from GEOS's
    /// prepared polygons and the postal code from a search with hints, so that the shared
    /// locator's prepared polygons and hints are made by one enricher and read by the others.
    @Test("enrichers sharing one locator enrich as each does with its own")
    func sharedLocator() throws {
        let lookup = try LocationLookup(dataDirectory: Self.dataDirectory)
        let configuration = EngineConfiguration()
        let seed = UInt64.random(in: 0...UInt64.max)
        print("sharedLocator seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let shared = try lookup.makeLocator(postalMaxDistance: configuration.postalMaxDistance)
        var sharing: [StandardEnricher] = []
        for _ in 0..<3 {
            var e = try StandardEnricher(lookup: lookup, configuration: configuration)
            e.use(shared)
            sharing.append(e)
        }
        // boxes (south, west, north, east): the 49th parallel, the Great Lakes, Maine and New
        // Brunswick, the Pacific coast of both, Nova Scotia's coast
        let boxes: [(Double, Double, Double, Double)] = [(48.8, -123.5, 49.2, -95.0), (41.5, -83.5, 45.5, -76.0),
                                                         (44.5, -71.0, 47.5, -66.5), (46.0, -125.0, 50.0, -122.0),
                                                         (43.5, -66.5, 46.0, -60.0)]
        var own = try StandardEnricher(lookup: lookup, configuration: configuration)
        var differ = 0, borderCountries: Set<String> = []
        for k in 0..<6_000 {
            let box = boxes[k % boxes.count]
            let lat = box.0 + (box.2 - box.0) * Double(rng.next() >> 11) / 0x1p53
            let lng = box.1 + (box.3 - box.1) * Double(rng.next() >> 11) / 0x1p53
            let position = ReportedPosition(latitude: .double(lat), longitude: .double(lng), accuracy: nil)
            let expected = own.enrich(position, at: ts(0))
            if sharing[k % sharing.count].enrich(position, at: ts(0)) != expected { differ += 1 }
            if let c = expected.country?.description { borderCountries.insert(c) }
        }
        #expect(differ == 0)
        // both sides of the border were reached
        #expect(borderCountries.isSuperset(of: ["CA", "US"]))
    }

    @Test("many threads at once give what one table gives alone")
    func concurrency() async {
        let records = ModelTests.stream(seed: 99, count: 40_000, ordered: true)
        // one table, in order
        // tasks run sessions in any interleaving, so a shard's watermark may run ahead of a
        // session's own time: eviction (which assumes bounded lateness) is off for this test
        var configuration = EngineConfiguration()
        configuration.evictAfter = Int64.max / 4
        var table = SessionTable(configuration: configuration, enricher: H3OnlyEnricher())
        let expected = records.map { ModelTests.outcome(&table, $0) }
        // the engine, one task per session (each session's records stay in order)
        let engine = LocationEngine(configuration: configuration, shardCount: 8) { H3OnlyEnricher() }
        let bySession = Dictionary(grouping: records.indices, by: { records[$0].session })
        let results = await withTaskGroup(of: [(Int, ModelTests.Outcome)].self) { group in
            for (_, indexes) in bySession {
                group.addTask {
                    indexes.map { i -> (Int, ModelTests.Outcome) in
                        let r = records[i]
                        if let f = r.fix {
                            switch engine.ingest(f, session: r.session, consent: r.consent) {
                            case .accepted(let e):
                                return (i, .decision(.accepted(Enrichment(latitude: 0, longitude: 0, accuracy: nil,
                                    fixTimestamp: e.fixTimestamp, h3: try! .init(string: "8f271c973aa4594"), country: nil, postal: nil))))
                            case .rejected(let why): return (i, .decision(.rejected(why)))
                            }
                        }
                        let a = engine.attach(session: r.session, at: ts(r.time), consent: r.consent)
                        return (i, .attachment(a?.ageMilliseconds, a?.enrichment.latitudeDegrees, a?.enrichment.longitudeDegrees))
                    }
                }
            }
            var all = [ModelTests.Outcome?](repeating: nil, count: records.count)
            for await part in group { for (i, o) in part { all[i] = o } }
            return all
        }
        let mismatches = zip(results, expected).filter { $0.0 != $0.1 }.count
        #expect(mismatches == 0)
        #expect(results.allSatisfy { $0 != nil })
    }
}
