@testable import EnrichStream
import GeoModel
import H3Core
import RecordCodec
import Testing

/// The stream's cache of rendered `geo` objects writes what ``Splice`` writes for the same
/// enrichment, whichever slot it uses, however its renderings' lengths change, and however
/// copies of it are used.
@Suite struct GeoRendererTests {
    static let cell = H3Cell(rawValue: 0x8f27_1c97_3aa4_594)!

    static func enrichment(_ k: Int, long: Bool) -> Enrichment {
        // long: a postal code and more digits, so that a slot's rendering grows past its buffer
        Enrichment(latitude: long ? .double(49.888171 + Double(k) * 1e-6) : .integer(Int64(k % 90)),
                   longitude: long ? .double(-97.131112) : .integer(0), accuracy: long ? 12.5 : nil,
                   fixTimestamp: Timestamp(milliseconds: 1_764_237_600_000 + Int64(k)), h3: cell,
                   country: long ? CountryCode("CA") : nil,
                   postal: long ? PostalMatch(code: PostalCode("R3C 4L9")!, distanceMetres: 19.7 + Double(k)) : nil)
    }

    static func tail(_ renderer: inout GeoRenderer, _ session: SessionID, _ geo: Enrichment, age: Int64) -> [UInt8] {
        var out: [UInt8] = []
        renderer.writeTail(session: session, enrichment: geo, age: age, to: &out)
        return out
    }

    /// The splice's tail, and the line's `\n` (which the renderer writes with it).
    static func expected(_ geo: Enrichment, age: Int64) -> [UInt8] {
        var out: [UInt8] = []
        Splice.appendTail(RenderedGeo(geo), ageMilliseconds: age, to: &out)
        return out + [0x0A]
    }

    @Test func tailsMatchTheSpliceOverManySessionsAndChangingLengths() {
        var renderer = GeoRenderer()
        var mismatches = 0
        // more sessions than slots, so slots are shared; each session's enrichment alternates
        // between a short and a long rendering, so buffers grow and are rendered over
        for round in 0..<3 {
            for k in 0..<(renderer.cacheSlots + 500) {
                let session = SessionID(String(k))!
                let geo = Self.enrichment(k + round, long: (k + round) % 2 == 0)
                for age in [Int64(0), 1_234, -5] where Self.tail(&renderer, session, geo, age: age) != Self.expected(geo, age: age) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// The runner's hints (``GeoRenderer/prefetchSlot(ofHash:)``, ``GeoRenderer/prefetchRendering(ofHash:)``)
    /// change nothing: given for empty slots, slots with renderings of every length, and any
    /// hash (0 is what the runner passes past a chunk's end), the cache keeps what it held and
    /// the tails are still the splice's.
    @Test func prefetchHintsChangeNothing() {
        var renderer = GeoRenderer(cacheSlots: 64)
        let hashes: [UInt64] = [0, 1, 63, 64, .max, 0x9E37_79B9_7F4A_7C15]
        for h in hashes {
            renderer.prefetchSlot(ofHash: h)
            renderer.prefetchRendering(ofHash: h)  // the slot still empty
        }
        var mismatches = 0
        for k in 0..<200 {
            let session = SessionID("p" + String(k))!
            let geo = Self.enrichment(k, long: k % 3 != 0)
            renderer.prefetchSlot(ofHash: session.stableHash)
            renderer.prefetchRendering(ofHash: session.stableHash)
            for h in hashes { renderer.prefetchRendering(ofHash: h) }
            if Self.tail(&renderer, session, geo, age: Int64(k)) != Self.expected(geo, age: Int64(k)) { mismatches += 1 }
            renderer.prefetchRendering(ofHash: session.stableHash)
            #expect(renderer.cachedEnrichment(session: session) == geo)
        }
        #expect(mismatches == 0)
    }

    /// Sessions never seen again (a stream of far more live sessions than slots): after a
    /// window with few hits the cache is off, tails still the splice's; 16 windows later it is
    /// tried again, and sessions seen over and over keep it on.
    @Test func aCacheThatMissesIsTurnedOffAndBackOn() {
        var renderer = GeoRenderer()
        var mismatches = 0
        var k = 0
        func write(_ session: SessionID, _ geo: Enrichment) {
            let age = Int64(k % 1_000)
            if Self.tail(&renderer, session, geo, age: age) != Self.expected(geo, age: age) { mismatches += 1 }
            k += 1
        }
        while !renderer.isBypassed && k < 3 * CacheBypass.window {
            write(SessionID(String("new-\(k)"))!, Self.enrichment(k, long: k % 2 == 0))
        }
        #expect(renderer.isBypassed && k <= 2 * CacheBypass.window, "\(k) tails")
        // off: the same session's tails are rendered each time, and are right
        let session = SessionID(String("s-1"))!
        for _ in 0..<(16 * CacheBypass.window) { write(session, Self.enrichment(7, long: true)) }
        #expect(!renderer.isBypassed)
        #expect(renderer.cachedEnrichment(session: session) != Self.enrichment(7, long: true))  // nothing kept while off
        for _ in 0..<(2 * CacheBypass.window) { write(session, Self.enrichment(7, long: true)) }
        #expect(!renderer.isBypassed)
        #expect(renderer.cachedEnrichment(session: session) == Self.enrichment(7, long: true))
        #expect(mismatches == 0)
    }

    /// Two sessions in one slot whose fixes differ only in a zero's sign: each line gets its
    /// own zero, as the peer writes it (`Double`'s `==` calls them equal).
    @Test func signedZerosAreRenderedApart() {
        var renderer = GeoRenderer(cacheSlots: 1)
        func geo(_ latitude: Double, _ longitude: Double) -> Enrichment {
            Enrichment(latitude: .double(latitude), longitude: .double(longitude), accuracy: 5.0,
                       fixTimestamp: Timestamp(milliseconds: 1_764_237_600_000), h3: Self.cell, country: nil, postal: nil)
        }
        let geos = [geo(0.0, 10.5), geo(-0.0, 10.5), geo(-0.0, -0.0), geo(0.0, 0.0), geo(0.0, 10.5)]
        for (k, g) in geos.enumerated() {
            let tail = Self.tail(&renderer, SessionID(String("z-\(k)"))!, g, age: 0)
            #expect(tail == Self.expected(g, age: 0), "\(String(decoding: tail, as: UTF8.self))")
        }
        #expect(geos[0].position != geos[1].position && geos[2].position != geos[3].position)
        #expect(geos[0].position == geos[4].position && geos[0].position.hashValue == geos[4].position.hashValue)
    }

    @Test func aCopyRendersIntoSlotsOfItsOwn() {
        var first = GeoRenderer()
        let session = SessionID(String(1))!
        let a = Self.enrichment(1, long: true), b = Self.enrichment(2, long: false)
        #expect(Self.tail(&first, session, a, age: 7) == Self.expected(a, age: 7))
        var second = first
        // the copy writes another rendering into the same session's slot
        #expect(Self.tail(&second, session, b, age: 8) == Self.expected(b, age: 8))
        // the first still has its own, unchanged: copies used on two threads never share a slot
        #expect(first.cachedEnrichment(session: session) == a)
        #expect(second.cachedEnrichment(session: session) == b)
        #expect(Self.tail(&first, session, a, age: 9) == Self.expected(a, age: 9))
        #expect(Self.tail(&second, session, a, age: 10) == Self.expected(a, age: 10))
    }
}
