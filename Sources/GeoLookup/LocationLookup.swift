import GeoBridge
import GeoModel
import ThreadSharing

/// The country of a point and, in Canada (and, when asked, in the US), its nearest postal code
/// within a maximum distance, from the bundled Natural Earth, GeoNames and ZIP code data; when
/// asked, its time zone (timezonefinder's data).
///
/// Open once per process (``init(dataDirectory:postalMaxDistance:)`` maps the files; it is
/// `Sendable` and shared). Then either call ``locate(latitude:longitude:)`` from any task or
/// thread (it lends one of a pool of locators), or give each thread its own ``Locator`` (GEOS
/// contexts are per thread), which saves the pool's lock.
public final class LocationLookup: Sendable {
    /// Natural Earth countries.
    public let countries: CountryIndex
    /// GeoNames Canadian postal-code centroids.
    public let postal: PostalIndex
    /// US ZIP code centroids, when ``postalCountries`` holds the US (`postal_us.bin`).
    public let zipCodes: PostalIndex?
    /// The countries whose points get a postal code (default Canada alone).
    public let postalCountries: Set<PostalCode.System>
    /// The time zones of `timezones.bin`, when points are to get one.
    public let timeZones: TimeZoneIndex?
    /// The zones' UTC offsets through time (the system's tz database), when points are to get a
    /// time zone and a fix's time its offset (`Enrichment.utcOffsetSeconds`).
    public let utcOffsets: TimeZoneDatabase?
    /// The user's fences, when points get the list of those holding them (rule 11).
    public let geofences: GeofenceSet?
    /// Largest distance in metres from a point to the centroid of its postal code, for locators
    /// made without one of their own (default 20 km).
    public let postalMaxDistance: Double
    /// Locators lent by ``locate(latitude:longitude:)``: a locator costs a GEOS context and its
    /// prepared geometries, about 30 times a lookup, so one is made per concurrent caller, not
    /// per call.
    private let locators = LendingPool<Locator>(idleLimit: 16)

    /// The file names inside a data directory.
    public static let countriesFile = "countries.bin"
    public static let postalFile = "postal_ca.bin"
    public static let zipCodeFile = "postal_us.bin"
    public static let timeZoneFile = "timezones.bin"

    /// Opens `countries.bin` and `postal_ca.bin` from a data directory, `postal_us.bin` when
    /// US points are to get ZIP codes, and `timezones.bin` when points are to get a time zone.
    ///
    /// - Parameters:
    ///   - dataDirectory: the folder holding the data files (the repository's `data/`).
    ///   - postalMaxDistance: metres, default 20,000.
    ///   - postalCountries: the countries whose points get a postal code: Canada (the default),
    ///     the US, both, or none.
    ///   - timeZones: whether points get their time zone (default no: the file is not opened).
    ///   - utcOffsets: with `timeZones`, whether the system's tz database is read too, for the
    ///     zone's UTC offset at a fix's time (default yes; `geo-enrich lookup`, whose points have
    ///     no time, says no).
    ///   - geofences: a user's fences, when points are to get the list of those holding them
    ///     (contract rule 11; loaded and checked by the caller, see ``GeofenceSet``).
    /// - Throws: ``DataFileError`` naming the file that is missing or damaged (the first in the
    ///   order above, when several are).
    /// - Complexity: O(n) in the data size (checksums): a few milliseconds, the countries, the
    ///   postal files and the time zones each on a thread of its own.
    public init(dataDirectory: String, postalMaxDistance: Double = 20_000,
                postalCountries: Set<PostalCode.System> = [.canada], timeZones: Bool = false,
                utcOffsets: Bool = true, geofences: GeofenceSet? = nil) throws(DataFileError) {
        self.geofences = geofences
        // the countries, the postal files and the time zones each checked on a thread of their
        // own: one after the other, the postal file's checks waited for the countries' (the
        // benchmark's start-up spent about 17 % of its CPU in the postal file, 27 % in the
        // countries', perf); a problem is reported for the first file in this order, as before
        enum Opened: Sendable {
            case countries(Swift.Result<CountryIndex, DataFileError>)
            case postal(Swift.Result<(PostalIndex, PostalIndex?), DataFileError>)
            case timeZones(Swift.Result<(TimeZoneIndex, TimeZoneDatabase?)?, DataFileError>)
        }
        let opened = ForkJoin.map(parts: timeZones ? 3 : 2) { part -> Opened in
            switch part {
            case 0:
                return .countries(Swift.Result { () throws(DataFileError) in
                    try CountryIndex(path: dataDirectory + "/" + LocationLookup.countriesFile)
                })
            case 1:
                return .postal(Swift.Result { () throws(DataFileError) in
                    (try PostalIndex(path: dataDirectory + "/" + LocationLookup.postalFile, expecting: .canada),
                     postalCountries.contains(.unitedStates)
                        ? try PostalIndex(path: dataDirectory + "/" + LocationLookup.zipCodeFile, expecting: .unitedStates) : nil)
                })
            default:
                return .timeZones(Swift.Result { () throws(DataFileError) in
                    (try TimeZoneIndex(path: dataDirectory + "/" + LocationLookup.timeZoneFile),
                     utcOffsets ? try TimeZoneDatabase() : nil)
                })
            }
        }
        guard case .countries(let countries) = opened[0], case .postal(let postal) = opened[1] else {
            preconditionFailure("parts 0 and 1 open the countries and the postal files")
        }
        self.countries = try countries.get()
        (self.postal, zipCodes) = try postal.get()
        var zones: (TimeZoneIndex, TimeZoneDatabase?)? = nil
        if opened.count > 2, case .timeZones(let opened) = opened[2] { zones = try opened.get() }
        self.timeZones = zones?.0
        self.utcOffsets = zones?.1
        self.postalMaxDistance = postalMaxDistance
        self.postalCountries = postalCountries
    }

    /// Opens the data files (as ``init(dataDirectory:postalMaxDistance:postalCountries:timeZones:utcOffsets:geofences:)``)
    /// and reads the fence file at `geofenceFile`, if any (as ``GeofenceSet/init(contentsOf:)``),
    /// at the same time, on two threads.
    ///
    /// Opening the data takes about 30 ms of CPU (the files' checksums and trees, the countries'
    /// on one thread and the postal files' on another); a fence file of 20,000 fences takes
    /// about 150 ms more, its parts on every core. Side by side they take about the longer of
    /// the two.
    ///
    /// - Throws: the fence file's ``GeofenceFileError`` when it has a problem (first, as when
    ///   the file is read before the data), else the data's ``DataFileError``.
    public static func opening(dataDirectory: String, postalMaxDistance: Double = 20_000,
                               postalCountries: Set<PostalCode.System> = [.canada], timeZones: Bool = false,
                               utcOffsets: Bool = true, geofenceFile: String?) throws -> LocationLookup {
        enum Opened: Sendable {
            case data(Swift.Result<LocationLookup, DataFileError>)
            case fences(Swift.Result<GeofenceSet?, GeofenceFileError>)
        }
        let opened = ForkJoin.map(parts: geofenceFile == nil ? 1 : 2) { part -> Opened in
            if part == 1 {
                return .fences(Swift.Result { () throws(GeofenceFileError) -> GeofenceSet? in
                    try geofenceFile.map { path throws(GeofenceFileError) in try GeofenceSet(contentsOf: path) }
                })
            }
            return .data(Swift.Result { () throws(DataFileError) -> LocationLookup in
                try LocationLookup(dataDirectory: dataDirectory, postalMaxDistance: postalMaxDistance,
                                   postalCountries: postalCountries, timeZones: timeZones, utcOffsets: utcOffsets)
            })
        }
        var fences: GeofenceSet? = nil
        if opened.count == 2, case .fences(let loaded) = opened[1] { fences = try loaded.get() }
        guard case .data(let data) = opened[0] else { preconditionFailure("part 0 opens the data") }
        let lookup = try data.get()
        return fences == nil ? lookup : LocationLookup(lookup, geofences: fences)
    }

    /// `other`'s opened data with `geofences`.
    private init(_ other: LocationLookup, geofences: GeofenceSet?) {
        countries = other.countries
        postal = other.postal
        zipCodes = other.zipCodes
        postalCountries = other.postalCountries
        timeZones = other.timeZones
        utcOffsets = other.utcOffsets
        self.geofences = geofences
        postalMaxDistance = other.postalMaxDistance
    }

    /// What the lookup found for one point.
    public struct Result: Hashable, Sendable {
        /// ISO 3166-1 alpha-2 of the Natural Earth polygon holding the point (`ISO_A2_EH`).
        public var country: CountryCode?
        /// The nearest postal code within the maximum distance, for points in the lookup's
        /// ``LocationLookup/postalCountries`` only.
        public var postal: PostalMatch?
        /// The time zone (timezonefinder's `timezone_at`), when the lookup has ``LocationLookup/timeZones``.
        public var timeZone: TimeZoneID?
        /// The fences holding the point, when the lookup has ``LocationLookup/geofences``; read
        /// with their ``GeofenceSet/lists``.
        public var geofences: GeofenceList?

        public init(country: CountryCode? = nil, postal: PostalMatch? = nil, timeZone: TimeZoneID? = nil,
                    geofences: GeofenceList? = nil) {
            self.country = country
            self.postal = postal
            self.timeZone = timeZone
            self.geofences = geofences
        }
    }

    /// A lookup for one thread at a time.
    public final class Locator {
        public let lookup: LocationLookup
        /// Largest distance in metres from a point to the centroid of its postal code.
        public let postalMaxDistance: Double
        private let countries: CountryLocator
        /// This thread's memory of the postal searches from empty cells, one per postal file.
        private let postalHints = PostalSearchHints()
        private let zipHints = PostalSearchHints()
        /// Whether Canadian points get a postal code.
        private let canadianCodes: Bool
        /// The postal indexes, held by the locator itself (the US one as a plain reference, not
        /// an optional, valid when `usCodes`): called through the lookup, or through an
        /// optional's binding, each was retained and released on every fix it answered, atomic
        /// operations on a count that every worker thread's locator shares (callgrind counted
        /// one retain an accepted fix).
        private let canadianIndex: PostalIndex
        private let zipCodes: PostalIndex
        /// Whether US points get a ZIP code.
        private let usCodes: Bool
        /// This thread's fence locator, with ``LocationLookup/geofences``.
        private let fences: GeofenceLocator?
        private static let canada = CountryCode("CA")!
        private static let unitedStates = CountryCode("US")!

        /// - Parameters:
        ///   - lookup: the opened data.
        ///   - postalMaxDistance: metres; `nil` (the default) takes the lookup's
        ///     ``LocationLookup/postalMaxDistance``.
        /// - Throws: ``GEOSError`` when GEOS cannot create a context.
        public init(_ lookup: LocationLookup, postalMaxDistance: Double? = nil) throws(GEOSError) {
            self.lookup = lookup
            self.postalMaxDistance = postalMaxDistance ?? lookup.postalMaxDistance
            countries = try CountryLocator(index: lookup.countries)
            canadianCodes = lookup.postalCountries.contains(.canada)
            canadianIndex = lookup.postal
            // without ZIP codes, the Canadian index stands in, never called
            zipCodes = lookup.zipCodes ?? lookup.postal
            usCodes = lookup.zipCodes != nil
            fences = try lookup.geofences?.makeLocator()
        }

        /// The country, in the lookup's postal countries the postal code, with
        /// ``LocationLookup/timeZones`` the time zone and with ``LocationLookup/geofences`` the
        /// fences holding a point in degrees.
        ///
        /// - Complexity: O(1) for most points (a precomputed cover); a prepared polygon test near
        ///   borders and coasts; the postal search in Canada or the US (see
        ///   ``PostalIndex/nearest(latitude:longitude:maxDistance:)``); the time zone's (see
        ///   ``TimeZoneIndex/zone(latitude:longitude:)``); the fences' (see
        ///   ``GeofenceLocator/list(containing:)``).
        public func locate(latitude: Double, longitude: Double) -> Result {
            // the fences last: the prefetch (ours, or a caller's before its own work) has had
            // the country's and postal code's time to bring the fence index's slot in
            fences?.prefetch(GeoPoint(latitude: latitude, longitude: longitude))
            let country = countries.country(latitude: latitude, longitude: longitude)
            let timeZone = lookup.timeZones?.zone(latitude: latitude, longitude: longitude)
            fences?.prefetchShapes(GeoPoint(latitude: latitude, longitude: longitude))
            // the postal file of the country, if it is one of the lookup's postal countries, called
            // through the locator's own references (see `canadianIndex`)
            let postal: PostalMatch?
            if country == Locator.canada && canadianCodes {
                postal = canadianIndex.nearest(latitude: latitude, longitude: longitude, maxDistance: postalMaxDistance,
                                           hints: postalHints)
            } else if country == Locator.unitedStates && usCodes {
                postal = zipCodes.nearest(latitude: latitude, longitude: longitude, maxDistance: postalMaxDistance,
                                          hints: zipHints)
            } else {
                postal = nil
            }
            let geofences = fences?.list(containing: GeoPoint(latitude: latitude, longitude: longitude))
            return Result(country: country, postal: postal, timeZone: timeZone, geofences: geofences)
        }

        /// Starts bringing in what a ``locate(latitude:longitude:)`` of the point reads first
        /// from the fence index (nothing without fences). For a caller with work to do before
        /// it: a fix's H3 cell takes about as long as the index's cache miss.
        @inline(__always)
        public func prefetch(latitude: Double, longitude: Double) {
            fences?.prefetch(GeoPoint(latitude: latitude, longitude: longitude))
        }
    }

    /// The country and, in the postal countries, the postal code of a point in degrees, within
    /// ``postalMaxDistance`` (and with ``timeZones``, its time zone): safe to call from any task
    /// or thread, with no set-up per call.
    ///
    /// - Throws: ``GEOSError`` when GEOS cannot create a context for a new locator (only when
    ///   more callers than ever before are concurrent).
    public func locate(latitude: Double, longitude: Double) throws(GEOSError) -> Result {
        try locators.withBorrowed(make: { () throws(GEOSError) in try Locator(self) }) { locator in
            locator.locate(latitude: latitude, longitude: longitude)
        }
    }

    /// A new ``Locator`` for the calling thread.
    ///
    /// - Parameter postalMaxDistance: metres; `nil` (the default) takes ``postalMaxDistance``.
    /// - Throws: ``GEOSError`` when GEOS cannot create a context.
    public func makeLocator(postalMaxDistance: Double? = nil) throws(GEOSError) -> Locator {
        try Locator(self, postalMaxDistance: postalMaxDistance)
    }
}
