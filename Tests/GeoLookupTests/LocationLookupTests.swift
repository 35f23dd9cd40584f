import Testing

@testable import GeoLookup

@Suite("LocationLookup: country first, postal code only in Canada")
struct LocationLookupTests {
    static let lookup: LocationLookup = {
        do { return try LocationLookup(dataDirectory: TestData.data("")) } catch { fatalError("\(error)") }
    }()

    @Test("the EQWorks seed points")
    func seeds() throws {
        let l = try Self.lookup.makeLocator()
        // ../shared/seeds/eqworks-ios-sdk.md: fsa R3C and R2H in Winnipeg; the batch point has no postal code
        let a = l.locate(latitude: 49.888171, longitude: -97.131112)
        #expect(a.country?.description == "CA")
        #expect(a.postal?.fsa == "R3C")
        let b = l.locate(latitude: 49.880312, longitude: -97.112786)
        #expect(b.postal?.fsa == "R2H")
        let c = l.locate(latitude: 23.456755, longitude: -12.651229)
        #expect(c.country?.description == "EH")
        #expect(c.postal == nil)
    }

    @Test("downtown Detroit gets no Windsor postal code although one lies 1.4 km away")
    func detroit() throws {
        let l = try Self.lookup.makeLocator()
        let detroit = l.locate(latitude: 42.3314, longitude: -83.0458)
        #expect(detroit.country?.description == "US")
        #expect(detroit.postal == nil)
        // the naive answer, for the record: the nearest centroid ignoring the border is Canadian
        let naive = Self.lookup.postal.nearest(latitude: 42.3314, longitude: -83.0458, maxDistance: 20_000)
        #expect(naive != nil)
        let windsor = l.locate(latitude: 42.3149, longitude: -83.0364)
        #expect(windsor.country?.description == "CA")
        #expect(windsor.postal?.fsa.hasPrefix("N") == true)
    }

    @Test("the maximum postal distance is honoured")
    func maxDistance() throws {
        let tight = try LocationLookup(dataDirectory: TestData.data(""), postalMaxDistance: 5)
        let r = try tight.makeLocator().locate(latitude: 49.888171, longitude: -97.131112)
        // the nearest centroid is 19.7 m away: beyond 5 m
        #expect(r.country?.description == "CA")
        #expect(r.postal == nil)
    }

    @Test("a missing data directory is an error that names the file")
    func missing() {
        #expect {
            _ = try LocationLookup(dataDirectory: "/nonexistent")
        } throws: { error in
            "\(error)".contains("/nonexistent/countries.bin")
        }
    }
}
