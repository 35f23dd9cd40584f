import ArgumentParser
import GeoEnrichOptions
import GeoBridge
import GeoLookup

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geo-enrich lookup`: country, postal code and FSA (and, when asked, time zone) of `LAT LNG` lines.
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Country, and in Canada postal code and FSA (in the US with --postal-countries CA,US, the ZIP code), of `LAT LNG` lines (degrees); with --timezone, the time zone.",
        discussion: """
            Writes one JSON object per input line, e.g. \
            {"country":"CA","postalcode":"R3C 4L9","fsa":"R3C","postal_distance_m":19.7}. Keys are \
            absent when there is no answer ({} in the open ocean). With --timezone, every object \
            ends with "timezone":"<IANA name>" (timezonefinder 9.0.0's answer, Etc/GMT±N at sea). \
            A line that cannot be read gives {"error":"<reason>"} and the run goes on (exit status \
            1 at the end).
            """)

    @Option(help: ArgumentHelp(DataDirectory.optionHelp))
    var data: String?

    @Option(name: .customLong("postal-max-distance"), parsing: .unconditional, help: "Largest distance to a postal-code centroid, in metres.")
    var postalMaxDistance: Double = 20_000

    @Option(name: .customLong("postal-countries"), help: PostalCountries.help)
    var postalCountries: PostalCountries = .canada

    @Flag(name: .customLong("timezone"), help: "Also answer each point's IANA time zone, as PyPI timezonefinder 9.0.0 does (reads data/timezones.bin).")
    var timeZone = false

    @Option(name: .customLong("geofences"), help: ArgumentHelp(
        "Also answer which fences of a GeoJSON fence file hold each point (contract rule 11): \"geofences\":[ids] last.",
        valueName: "file"))
    var geofences: String?

    func validate() throws {
        guard postalMaxDistance.isFinite, postalMaxDistance >= 0 else {
            throw ValidationError("--postal-max-distance must be a non-negative number of metres")
        }
    }

    func run() throws {
        let lookup: LocationLookup
        do {
            // the fences read while the data files are opened, on two threads, as `enrich` reads them
            lookup = try LocationLookup.opening(dataDirectory: DataDirectory.resolve(data), postalMaxDistance: postalMaxDistance,
                                                postalCountries: postalCountries.systems, timeZones: timeZone,
                                                utcOffsets: false,  // a point alone has no time
                                                geofenceFile: geofences)
        } catch {
            StandardError.line("geo-enrich: \(error)")
            throw ExitCode(1)
        }
        let locator = try lookup.makeLocator()
        let lists = lookup.geofences?.lists
        /// The object, with the fences holding the point as its last key when asked.
        func answer(_ lat: Double, _ lng: Double) -> String {
            let result = locator.locate(latitude: lat, longitude: lng)
            let object = LookupJSON.object(result)
            guard let lists, let list = result.geofences else { return object }
            // the list's JSON array, as the table keeps it for `enrich`
            return object.dropLast() + (object == "{}" ? "" : ",") + "\"geofences\":" + String(decoding: lists.text(of: list), as: UTF8.self) + "}"
        }
        // the common line (two plain decimals in range) is read and answered without strings
        let fastPath = { (line: UnsafeBufferPointer<UInt8>, out: OutputBuffer) -> Bool in
            guard lists == nil, let (lat, lng) = CoordinateText.pair(line), abs(lat) <= 90, abs(lng) <= 180 else { return false }
            LookupJSON.write(locator.locate(latitude: lat, longitude: lng), to: out)
            return true
        }
        try LineTool.run(errorLine: { #"{"error":"\#($0)"}"# }, fastPath: fastPath) { fields in
            guard fields.count == 2, let lat = CoordinateText.decimal(fields[0]), let lng = CoordinateText.decimal(fields[1]) else {
                throw LineError("expected `LAT LNG` in degrees")
            }
            guard lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else {
                throw LineError("latitude must be in [-90, 90] and longitude in [-180, 180]")
            }
            return answer(lat, lng)
        }
    }
}

/// The JSON of a lookup result, keys in the contract's order.
enum LookupJSON {
    /// The object's text, piece by piece in order: the one layout behind both forms below.
    /// The pieces are literals and small strings (made without a heap allocation), and the time
    /// zone's name as the compiled table's static string (`named`): most IANA names pass the 15
    /// bytes of a small string, and making a `String` of one cost an allocation a line.
    @inline(__always) static func forEachPiece(_ r: LocationLookup.Result, _ body: (String) -> Void,
                                               named: (StaticString) -> Void) {
        body("{")
        if let c = r.country {
            body("\"country\":\"")
            body(c.description)
            body("\"")
            if r.postal != nil || r.timeZone != nil { body(",") }
        }
        if let p = r.postal {
            body("\"postalcode\":\"")
            body(p.code.formatted)
            if let fsa = p.fsa {
                body("\",\"fsa\":\"")
                body(fsa)
            }
            body("\",\"postal_distance_m\":")
            body(p.distanceMetres.description)
            if r.timeZone != nil { body(",") }
        }
        if let z = r.timeZone {
            // IANA names are ASCII letters, digits, `/`, `_`, `-` and `+`: nothing to escape
            body("\"timezone\":\"")
            named(z.staticName)
            body("\"")
        }
        body("}")
    }

    /// The object as a string.
    static func object(_ r: LocationLookup.Result) -> String {
        var text = ""
        forEachPiece(r, { text += $0 }, named: { text += $0.description })
        return text
    }

    /// Writes the object and a newline to `out`, without building the string.
    static func write(_ r: LocationLookup.Result, to out: OutputBuffer) {
        forEachPiece(r, { out.append($0) }, named: { out.append($0) })
        out.endLine()
    }
}
