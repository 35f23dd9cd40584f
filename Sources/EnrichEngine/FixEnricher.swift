import GeoBridge
import GeoLookup
import GeoModel
import H3Core

/// Computes the location context of an accepted fix: its H3 cell, country, postal code and
/// (when asked) time zone with its UTC offset at the fix's time.
///
/// The engine owns one per shard and calls it under the shard's lock, so an implementation may
/// keep per-thread resources (a GEOS context) without locking.
public protocol FixEnricher {
    /// The `geo` values of a validated position taken at `timestamp`.
    mutating func enrich(_ position: ReportedPosition, at timestamp: Timestamp) -> Enrichment

    /// The fence set's table when the enrichments have ``Enrichment/geofences`` (rule 11): the
    /// session table then gives each accepted fix's transitions. `nil` (the default) for none.
    var geofenceLists: GeofenceListTable? { get }
}

extension FixEnricher {
    public var geofenceLists: GeofenceListTable? { nil }
}

/// The standard enricher: H3Core at the configured resolution and the bundled data's lookup;
/// the time zone and its offset when the lookup has them (``LocationLookup/timeZones``,
/// ``LocationLookup/utcOffsets``), and the fences holding the fix when it has a fence set
/// (``LocationLookup/geofences``).
public struct StandardEnricher: FixEnricher {
    public let resolution: H3Resolution
    private var locator: LocationLookup.Locator

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

    /// Locates with `locator` from now on, in place of the enricher's own: for a caller that runs
    /// many enrichers on a few threads, so that each thread's GEOS context, prepared polygons and
    /// postal search hints are made once per thread rather than once per enricher.
    ///
    /// The enricher then uses `locator` on whichever thread calls ``enrich(_:at:)``: the caller
    /// keeps each locator to one thread at a time (see `GeoBridge`'s `GEOSContext`).
    ///
    /// - Precondition: `locator` locates in the same lookup with the same postal maximum distance,
    ///   so that the enrichments do not change.
    public mutating func use(_ locator: LocationLookup.Locator) {
        precondition(locator.lookup === self.locator.lookup && locator.postalMaxDistance == self.locator.postalMaxDistance,
                     "a locator of another lookup or postal maximum distance would change the enrichments")
        self.locator = locator
    }

    public mutating func enrich(_ position: ReportedPosition, at timestamp: Timestamp) -> Enrichment {
        let latitude = position.latitudeDegrees, longitude = position.longitudeDegrees
        locator.prefetch(latitude: latitude, longitude: longitude)  // its miss behind the H3 cell's work
        // positions are validated (finite, in range) when a Fix is built
        guard let cell = try? H3Cell(LatLng(latitude: latitude, longitude: longitude), resolution: resolution) else {
            preconditionFailure("a validated fix has finite coordinates")
        }
        let place = locator.locate(latitude: latitude, longitude: longitude)
        var offset: Int32?
        if let zone = place.timeZone, let offsets = locator.lookup.utcOffsets {
            offset = offsets.utcOffset(of: zone, atMilliseconds: timestamp.milliseconds)
        }
        return Enrichment(position: position, fixTimestamp: timestamp, h3: cell, country: place.country,
                          postal: place.postal, timeZone: place.timeZone, utcOffsetSeconds: offset,
                          geofences: place.geofences)
    }

    public var geofenceLists: GeofenceListTable? { locator.lookup.geofences?.lists }
}
