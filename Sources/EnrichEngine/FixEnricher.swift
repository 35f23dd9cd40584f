import GeoBridge
import GeoLookup
import GeoModel
import H3Core

/// Computes the location context of an accepted fix: its H3 cell, country and postal code.
///
/// The engine owns one per shard and calls it under the shard's lock, so an implementation may
/// keep per-thread resources (a GEOS context) without locking.
public protocol FixEnricher {
    /// The H3 cell, country and postal code of a validated position (degrees).
    mutating func enrich(latitude: Double, longitude: Double) -> (h3: H3Cell, country: CountryCode?, postal: PostalMatch?)
}

/// The standard enricher: H3Core at the configured resolution and the bundled data's lookup.
public struct StandardEnricher: FixEnricher {
    public let resolution: H3Resolution
    private let locator: LocationLookup.Locator

    /// - Parameters:
    ///   - lookup: the opened data.
    ///   - resolution: the H3 resolution of the cells.
    ///   - postalMaxDistance: metres (``EngineConfiguration/postalMaxDistance``); `nil` takes the
    ///     lookup's own ``LocationLookup/postalMaxDistance``.
    /// - Throws: ``GEOSError`` when GEOS cannot create a context.
    public init(lookup: LocationLookup, resolution: H3Resolution, postalMaxDistance: Double? = nil) throws(GEOSError) {
        self.resolution = resolution
        locator = try lookup.makeLocator(postalMaxDistance: postalMaxDistance)
    }

    /// The enricher of a configuration: its H3 resolution and postal maximum distance.
    ///
    /// - Throws: ``GEOSError`` when GEOS cannot create a context.
    public init(lookup: LocationLookup, configuration: EngineConfiguration) throws(GEOSError) {
        try self.init(lookup: lookup, resolution: configuration.h3Resolution,
                      postalMaxDistance: configuration.postalMaxDistance)
    }

    public mutating func enrich(latitude: Double, longitude: Double) -> (h3: H3Cell, country: CountryCode?, postal: PostalMatch?) {
        // positions are validated (finite, in range) when a Fix is built
        guard let cell = try? H3Cell(LatLng(latitude: latitude, longitude: longitude), resolution: resolution) else {
            preconditionFailure("a validated fix has finite coordinates")
        }
        let place = locator.locate(latitude: latitude, longitude: longitude)
        return (cell, place.country, place.postal)
    }
}
