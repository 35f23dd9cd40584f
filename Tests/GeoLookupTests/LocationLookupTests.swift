import Foundation
import Testing

import GeoModel
@testable import GeoLookup

@Suite("LocationLookup: country first, postal code only in the postal countries")
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

    @Test("time zones only when asked: timezones.bin is opened by timeZones: true, and every point gets its zone")
    func timeZones() throws {
        #expect(Self.lookup.timeZones == nil)
        #expect(try Self.lookup.makeLocator().locate(latitude: 49.888171, longitude: -97.131112).timeZone == nil)
        let zoned = try LocationLookup(dataDirectory: TestData.data(""), postalCountries: [.canada, .unitedStates], timeZones: true)
        let l = try zoned.makeLocator()
        // timezonefinder 9.0.0's answers (Fixtures/timezone_reference.txt)
        let winnipeg = l.locate(latitude: 49.888171, longitude: -97.131112)
        #expect(winnipeg.timeZone?.name == "America/Winnipeg" && winnipeg.postal?.fsa == "R3C")
        let detroit = l.locate(latitude: 42.3314, longitude: -83.0458)
        #expect(detroit.timeZone?.name == "America/Detroit" && detroit.country?.description == "US")
        #expect(l.locate(latitude: 0, longitude: -140).timeZone?.name == "Etc/GMT+9")
        #expect(try zoned.locate(latitude: 42.3149, longitude: -83.0364).timeZone?.name == "America/Toronto")
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
        #expect(windsor.postal?.fsa?.hasPrefix("N") == true)
    }

    @Test("the maximum postal distance is honoured")
    func maxDistance() throws {
        let tight = try LocationLookup(dataDirectory: TestData.data(""), postalMaxDistance: 5)
        let r = try tight.makeLocator().locate(latitude: 49.888171, longitude: -97.131112)
        // the nearest centroid is 19.7 m away: beyond 5 m
        #expect(r.country?.description == "CA")
        #expect(r.postal == nil)
    }

    // the expected codes and distances: PyPI zipcodes 3.0.0's active STANDARD centroids, nearest
    // by pyproj's WGS84 geodesic (scripts/ci/zip_diffcheck.py checks fresh random points each run)
    static let both: LocationLookup = {
        do { return try LocationLookup(dataDirectory: TestData.data(""), postalCountries: [.canada, .unitedStates]) }
        catch { fatalError("\(error)") }
    }()

    @Test("with the US asked for, US points get their ZIP code and no FSA; Canada keeps its codes")
    func zipCodes() throws {
        let l = try Self.both.makeLocator()
        let detroit = l.locate(latitude: 42.3314, longitude: -83.0458)
        #expect(detroit.country?.description == "US")
        #expect(detroit.postal?.code.formatted == "48243" && detroit.postal?.distanceMetres == 0)
        #expect(detroit.postal?.code.system == .unitedStates && detroit.postal?.fsa == nil)
        let empireState = l.locate(latitude: 40.7484, longitude: -73.9857)
        #expect(empireState.postal?.code.formatted == "10118" && empireState.postal?.distanceMetres == 94.9)
        let anchorage = l.locate(latitude: 61.2181, longitude: -149.9003)
        #expect(anchorage.postal?.code.formatted == "99513" && anchorage.postal?.distanceMetres == 905.4)
        let honolulu = l.locate(latitude: 21.3069, longitude: -157.8583)
        #expect(honolulu.postal?.code.formatted == "96859" && honolulu.postal?.distanceMetres == 10.4)
        let windsor = l.locate(latitude: 42.3149, longitude: -83.0364)
        #expect(windsor.country?.description == "CA" && windsor.postal?.fsa?.hasPrefix("N") == true)
    }

    @Test("US alone: Canadian points get no postal code")
    func usAlone() throws {
        let us = try LocationLookup(dataDirectory: TestData.data(""), postalCountries: [.unitedStates])
        let l = try us.makeLocator()
        #expect(l.locate(latitude: 49.888171, longitude: -97.131112).postal == nil)
        #expect(l.locate(latitude: 42.3314, longitude: -83.0458).postal?.code.formatted == "48243")
        let none = try LocationLookup(dataDirectory: TestData.data(""), postalCountries: [])
        #expect(try none.makeLocator().locate(latitude: 49.888171, longitude: -97.131112).postal == nil)
    }

    @Test("a postal file of the other country is refused, named")
    func wrongCountry() {
        #expect {
            _ = try PostalIndex(path: TestData.data("postal_us.bin"), expecting: .canada)
        } throws: { error in
            "\(error)".contains("postal_us.bin") && "\(error)".contains("US ZIP codes")
        }
    }

    @Test("opening the data and a fence file together: the fences answer, and each file's problem is named, the fences' first")
    func openingWithFences() throws {
        let directory = "/tmp/geo-enrich-opening-\(getpid())"
        mkdir(directory, 0o700)
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        let good = directory + "/good.geojson", bad = directory + "/bad.geojson"
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"w","properties":{"radius_m":500},"geometry":{"type":"Point","coordinates":[-97.131112,49.888171]}}]}"#
            .write(toFile: good, atomically: true, encoding: .utf8)
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"w","geometry":{"type":"Point","coordinates":[0,0]}}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let opened = try LocationLookup.opening(dataDirectory: TestData.data(""), geofenceFile: good)
        #expect(opened.geofences?.fences.map(\.id) == ["w"])
        let answer = try opened.makeLocator().locate(latitude: 49.888171, longitude: -97.131112)
        #expect(answer.postal?.fsa == "R3C" && answer.geofences == .single(0))
        #expect(try LocationLookup.opening(dataDirectory: TestData.data(""), geofenceFile: nil).geofences == nil)
        #expect { _ = try LocationLookup.opening(dataDirectory: "/nonexistent", geofenceFile: bad) } throws: { error in
            error is GeofenceFileError && "\(error)".contains("radius_m")
        }
        #expect { _ = try LocationLookup.opening(dataDirectory: "/nonexistent", geofenceFile: good) } throws: { error in
            "\(error)".contains("/nonexistent/countries.bin")
        }
    }

    /// The files are opened on threads side by side; the error is still the first missing file's
    /// in the order countries, postal codes, ZIP codes, time zones.
    @Test("a data directory missing one file: the error names that file")
    func oneFileMissing() throws {
        let directory = "/tmp/geo-enrich-one-missing-\(getpid())"
        mkdir(directory, 0o700)
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        func link(_ name: String) { _ = symlink(TestData.data(name), directory + "/" + name) }
        func error(postalCountries: Set<PostalCode.System> = [.canada], timeZones: Bool = false) -> String {
            do {
                _ = try LocationLookup(dataDirectory: directory, postalCountries: postalCountries, timeZones: timeZones)
                return "opened"
            } catch { return "\(error)" }
        }
        link("countries.bin")
        #expect(error().contains(directory + "/postal_ca.bin"))
        link("postal_ca.bin")
        #expect(error() == "opened")
        #expect(error(postalCountries: [.canada, .unitedStates], timeZones: true).contains(directory + "/postal_us.bin"))
        link("postal_us.bin")
        #expect(error(postalCountries: [.canada, .unitedStates], timeZones: true).contains(directory + "/timezones.bin"))
        link("timezones.bin")
        #expect(error(postalCountries: [.canada, .unitedStates], timeZones: true) == "opened")
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
