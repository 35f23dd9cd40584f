import GeoModel
import H3Core
import Testing

@testable import EnrichEngine

/// An enricher whose fixes are in the fences a test says, by latitude: the rules of the
/// transitions do not depend on the geometry, which GeoLookup's tests and the CLI's reference
/// check cover.
struct ListedFencesEnricher: FixEnricher {
    let lists: GeofenceListTable
    /// Fence numbers holding a fix, by its latitude rounded to 0.01° (a place; fixes 0.001° apart
    /// are 111 m apart, past the distance filter, and in the same place).
    let fences: [Double: [Int]]

    mutating func enrich(_ position: ReportedPosition, at timestamp: Timestamp) -> Enrichment {
        let cell = try! H3Cell(LatLng(latitude: position.latitudeDegrees, longitude: position.longitudeDegrees),
                               resolution: .finest)
        return Enrichment(position: position, fixTimestamp: timestamp, h3: cell, country: nil, postal: nil,
                          geofences: lists.list(of: fences[(position.latitudeDegrees * 100).rounded() / 100] ?? []))
    }

    var geofenceLists: GeofenceListTable? { lists }
}

@Suite("Geofence transitions (rule 11): exits, enters and dwells per session")
struct GeofenceTrackerTests {
    // ids in ascending byte order: fence 0 is "a", 1 "b", 2 "c"
    static let lists = GeofenceListTable(ids: ["a", "b", "c"])
    // places 1.1 km apart (0.01° of latitude), so every fix passes the distance filter
    static let nowhere = 10.0, inA = 10.01, inAB = 10.02, inB = 10.03, inBC = 10.04, inABC = 10.05

    func table(dwell: Int64? = nil, _ configure: (inout EngineConfiguration) -> Void = { _ in })
        -> SessionTable<ListedFencesEnricher> {
        var c = EngineConfiguration()
        c.geofenceDwell = dwell
        configure(&c)
        let fences: [Double: [Int]] = [Self.inA: [0], Self.inAB: [0, 1], Self.inB: [1], Self.inBC: [1, 2],
                                       Self.inABC: [0, 1, 2]]
        return SessionTable(configuration: c, enricher: ListedFencesEnricher(lists: Self.lists, fences: fences))
    }

    /// The transitions of each fix, as "kind fence" strings (`enter a`), one list a fix.
    func walk(_ t: inout SessionTable<ListedFencesEnricher>, _ steps: [(lat: Double, seconds: Int64)],
              session: String = "s", consent: [Int: Consent] = [:]) -> [[String]] {
        steps.enumerated().map { i, step in
            var transitions: [GeofenceTransition] = []
            _ = t.ingest(fix(step.lat, 0, at: step.seconds * 1000), session: sid(session), consent: consent[i],
                         transitions: &transitions)
            return transitions.map { "\($0.kind.name) \(["a", "b", "c"][$0.fence])" }
        }
    }

    @Test("exits come before enters, each in ascending order of id; same fences, no transition")
    func order() {
        var t = table()
        let got = walk(&t, [(Self.inBC, 0), (Self.inA, 30), (Self.inABC, 60), (Self.inABC + 0.001, 90),
                            (Self.nowhere, 120)])
        #expect(got == [["enter b", "enter c"], ["exit b", "exit c", "enter a"], ["enter b", "enter c"], [],
                        ["exit a", "exit b", "exit c"]])
    }

    @Test("a transition carries its fix's time and position as written")
    func carriesTheFix() {
        var t = table()
        var transitions: [GeofenceTransition] = []
        _ = t.ingest(fix(Self.inA, 0, at: 5_000), session: sid("s"), transitions: &transitions)
        #expect(transitions == [GeofenceTransition(session: sid("s"), fence: 0, kind: .enter, timestamp: ts(5_000),
                                                   position: fix(Self.inA, 0, at: 5_000).position)])
    }

    @Test("rejected fixes change nothing: only accepted fixes move a session's fences")
    func rejectedFixesDoNotCount() {
        var t = table()
        var transitions: [GeofenceTransition] = []
        _ = t.ingest(fix(Self.inA, 0, at: 10_000), session: sid("s"), transitions: &transitions)
        // 10 m away (distance), then older (stale): both rejected, no exit
        let near = t.ingest(fix(Self.inA + 0.0001, 0, at: 20_000), session: sid("s"), transitions: &transitions)
        let stale = t.ingest(fix(Self.nowhere, 0, at: 5_000), session: sid("s"), transitions: &transitions)
        #expect(near == .rejected(.distance) && stale == .rejected(.stale))
        #expect(transitions.map(\.kind) == [.enter])
    }

    @Test("expiry ends no stay; more than evict-after between accepted fixes forgets the fences silently")
    func gapsAndEviction() {
        var t = table()
        // 120 s apart (the default evict-after, twice the expiry): still inside, nothing given
        var got = walk(&t, [(Self.inA, 0), (Self.inA + 0.001, 61), (Self.inA + 0.002, 181)])
        #expect(got == [["enter a"], [], []])
        // 120.001 s: forgotten, so the session enters again (and never exits)
        var u = table()
        var transitions: [GeofenceTransition] = []
        _ = u.ingest(fix(Self.inA, 0, at: 0), session: sid("s"), transitions: &transitions)
        _ = u.ingest(fix(Self.inA + 0.001, 0, at: 120_001), session: sid("s"), transitions: &transitions)
        #expect(transitions.map(\.kind) == [.enter, .enter])
        // and a longer evict-after keeps it
        var v = table { $0.evictAfter = 600_000 }
        got = walk(&v, [(Self.inA, 0), (Self.inA + 0.001, 500)])
        #expect(got == [["enter a"], []])
    }

    @Test("an opt-out drops the fences silently; after the opt-in the session starts empty")
    func optOut() {
        var t = table()
        let got = walk(&t, [(Self.inAB, 0), (Self.inAB + 0.001, 10), (Self.inAB + 0.002, 20), (Self.inAB + 0.003, 30)],
                       consent: [1: .optOut, 2: .optIn])
        // fix 1 is rejected (consent), fix 2 opts in and is a new session's first fix
        #expect(got == [["enter a", "enter b"], [], ["enter a", "enter b"], []])
    }

    @Test("a dwell follows once per stay, at the first accepted fix at least the dwell time after its enter")
    func dwell() {
        var t = table(dwell: 90_000)
        let got = walk(&t, [(Self.inA, 0), (Self.inAB, 60), (Self.inAB + 0.001, 90), (Self.inAB + 0.002, 150),
                            (Self.inAB + 0.003, 200), (Self.inB, 210), (Self.inAB, 220), (Self.inAB + 0.001, 310)])
        #expect(got == [["enter a"], ["enter b"], ["dwell a"], ["dwell b"], [], ["exit a"], ["enter a"], ["dwell a"]])
        #expect(t.store.geofenceSessionsWithStays == 1)
        // leaving every fence drops the session's stays
        _ = walk(&t, [(Self.nowhere, 320)])
        #expect(t.store.geofenceSessionsWithStays == 0)
    }

    @Test("a dwell time of 0 gives the dwell at the enter fix itself, after the enters")
    func dwellZero() {
        var t = table(dwell: 0)
        #expect(walk(&t, [(Self.inAB, 0)]) == [["enter a", "enter b", "dwell a", "dwell b"]])
    }

    @Test("eviction and opt-out forget the stays: no dwell carries over")
    func dwellForgotten() {
        var t = table(dwell: 100_000)
        let got = walk(&t, [(Self.inA, 0), (Self.inA + 0.001, 60), (Self.inA + 0.002, 181), (Self.inA + 0.003, 281)])
        // 121 s gap: the stay begins again at 181 s, so its dwell is at 281 s, not at 181 s
        #expect(got == [["enter a"], [], ["enter a"], ["dwell a"]])
    }

    @Test("sessions are independent")
    func sessions() {
        var t = table()
        #expect(walk(&t, [(Self.inA, 0)], session: "x") == [["enter a"]])
        #expect(walk(&t, [(Self.inB, 10)], session: "y") == [["enter b"]])
        #expect(walk(&t, [(Self.inB, 20)], session: "x") == [["exit a", "enter b"]])
    }
}
