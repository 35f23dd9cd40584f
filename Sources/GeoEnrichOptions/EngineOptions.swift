import ArgumentParser
import EnrichEngine
import H3Core

/// The engine's options of `geo-enrich enrich`, shared with a service built on the library
/// (Examples/IngestService) so that the same names mean the same things.
public struct EngineOptions: ParsableArguments {
    @Option(name: .customLong("distance-filter"), parsing: .unconditional, help: "Minimum WGS84 geodesic distance between a session's accepted fixes while the earlier one is live, in metres.")
    public var distanceFilter: Double = 100

    @Option(parsing: .unconditional, help: "How long an accepted fix stays live for events, in seconds.")
    public var expiry: Double = 60

    @Option(name: .customLong("h3-resolution"), parsing: .unconditional, help: "H3 resolution of the cell of each accepted fix (0-15).")
    public var h3Resolution: Int = 15

    @Option(name: .customLong("postal-max-distance"), parsing: .unconditional, help: "Largest distance to a postal-code centroid, in metres.")
    public var postalMaxDistance: Double = 20_000

    @Option(name: .customLong("postal-countries"), help: PostalCountries.help)
    public var postalCountries: PostalCountries = .canada

    @Flag(name: .customLong("timezone"), help: "Add each accepted fix's IANA time zone (as PyPI timezonefinder 9.0.0 answers it; data/timezones.bin) and its UTC offset at the fix's time (the system's tz database, $TZDIR or /usr/share/zoneinfo) to geo: timezone and utc_offset_s.")
    public var timeZone = false

    @Option(name: .customLong("max-accuracy"), parsing: .unconditional, help: "Reject fixes whose accuracy radius is larger, in metres (off by default).")
    public var maxAccuracy: Double?

    @Option(name: .customLong("consent-not-set"), help: "What consent \"notSet\" means: allow or deny.")
    public var consentNotSet: EngineConfiguration.NotSetPolicy = .allow

    @Option(name: .customLong("evict-after"), parsing: .unconditional, help: "Forget a session quiet for this long behind the newest timestamp, in seconds (default: twice the expiry). Raise it for input more out of order than evict-after minus expiry.")
    public var evictAfter: Double?

    public init() {}

    public func validate() throws {
        guard distanceFilter.isFinite, distanceFilter >= 0 else {
            throw ValidationError("--distance-filter must be a non-negative number of metres, not \(distanceFilter)")
        }
        guard expiry.isFinite, expiry > 0, expiry < 1e12 else {
            throw ValidationError("--expiry must be a positive number of seconds, not \(expiry)")
        }
        guard H3Resolution(rawValue: h3Resolution) != nil else {
            throw ValidationError("--h3-resolution must be 0 to 15, not \(h3Resolution)")
        }
        guard postalMaxDistance.isFinite, postalMaxDistance >= 0 else {
            throw ValidationError("--postal-max-distance must be a non-negative number of metres")
        }
        if let maxAccuracy, !(maxAccuracy.isFinite && maxAccuracy >= 0) {
            throw ValidationError("--max-accuracy must be a non-negative number of metres")
        }
        if let evictAfter, !(evictAfter.isFinite && evictAfter >= expiry && evictAfter < 1e12) {
            throw ValidationError("--evict-after must be a number of seconds at least --expiry (\(expiry))")
        }
    }

    /// The engine's configuration the options describe.
    public var configuration: EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.distanceFilter = distanceFilter
        configuration.expiry = Int64((expiry * 1000).rounded())
        configuration.h3Resolution = H3Resolution(rawValue: h3Resolution)!
        configuration.postalMaxDistance = postalMaxDistance
        configuration.maxAccuracy = maxAccuracy
        configuration.consentNotSet = consentNotSet
        configuration.evictAfter = evictAfter.map { Int64(($0 * 1000).rounded()) }
        return configuration
    }
}

extension EngineConfiguration.NotSetPolicy: ExpressibleByArgument {}
