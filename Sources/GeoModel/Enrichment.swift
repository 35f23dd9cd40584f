import H3Core

/// The location context of an accepted fix: the values of the `geo` object that enriches the
/// fix's own record and the events that get it as their session's live location.
///
/// The one type for it: the engine keeps one per live session and per older fix, the codec
/// writes it into each line (`RecordCodec`'s `Splice`), the push sends its position.
///
/// Memory: 80 bytes (the position's spare bytes hold the country code, see
/// ``ReportedPosition``). The time zone and its offset took it from 65 bytes: 8 bytes more a
/// live session, measured in `make bench`'s memory rows. The offset and the geofence list are
/// kept without `Optional`'s extra byte (a value that cannot occur means "none"), so that the
/// list's four bytes fit in the padding: as `Optional`s they made it 88.
public struct Enrichment: Hashable, Sendable {
    /// The fix's position as the record wrote it.
    public var position: ReportedPosition
    /// ISO 3166-1 alpha-2 of the Natural Earth polygon holding the fix.
    public var country: CountryCode?
    /// When the fix was taken.
    public var fixTimestamp: Timestamp
    /// The H3 cell of the fix at the configured resolution.
    public var h3: H3Cell
    /// The nearest postal code, for fixes in Canada (and the US, when asked) within the
    /// maximum distance.
    public var postal: PostalMatch?
    /// The IANA time zone of the fix (timezonefinder's), when time zones are asked for.
    public var timeZone: TimeZoneID?
    /// ``utcOffsetSeconds``, `Int32.min` for none (no zone is 68 years off UTC).
    @usableFromInline var utcOffsetStorage: Int32
    /// ``geofences``' handle, `UInt32.max` for none (``GeofenceList`` never uses it).
    @usableFromInline var geofenceStorage: UInt32

    /// The time zone's UTC offset at ``fixTimestamp`` in seconds (east positive), from the
    /// system's tz database, when time zones are asked for.
    @inlinable public var utcOffsetSeconds: Int32? {
        get { utcOffsetStorage == .min ? nil : utcOffsetStorage }
        set { utcOffsetStorage = newValue ?? .min }
    }

    /// The fences holding the fix (contract rule 11), when fences are asked for: the `geo`
    /// object's last key, `geofences`, read through the fence set's ``GeofenceListTable``.
    @inlinable public var geofences: GeofenceList? {
        get { geofenceStorage == .max ? nil : GeofenceList(rawValue: geofenceStorage) }
        set { geofenceStorage = newValue?.rawValue ?? .max }
    }

    /// Collects the values of one `geo` object; each parameter is the property of the same name.
    @inlinable
    public init(position: ReportedPosition, fixTimestamp: Timestamp, h3: H3Cell, country: CountryCode?,
                postal: PostalMatch?, timeZone: TimeZoneID? = nil, utcOffsetSeconds: Int32? = nil,
                geofences: GeofenceList? = nil) {
        self.position = position
        self.country = country
        self.fixTimestamp = fixTimestamp
        self.h3 = h3
        self.postal = postal
        self.timeZone = timeZone
        // no real offset is Int32.min seconds (68 years)
        utcOffsetStorage = utcOffsetSeconds ?? .min
        geofenceStorage = geofences?.rawValue ?? .max
    }

    /// Collects the values of one `geo` object, in the contract's order, the numbers as the
    /// record wrote them; each parameter is the property of the same name.
    @inlinable
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?, fixTimestamp: Timestamp,
                h3: H3Cell, country: CountryCode?, postal: PostalMatch?, timeZone: TimeZoneID? = nil,
                utcOffsetSeconds: Int32? = nil, geofences: GeofenceList? = nil) {
        self.init(position: ReportedPosition(latitude: latitude, longitude: longitude, accuracy: accuracy),
                  fixTimestamp: fixTimestamp, h3: h3, country: country, postal: postal, timeZone: timeZone,
                  utcOffsetSeconds: utcOffsetSeconds, geofences: geofences)
    }

    /// The fix's latitude in degrees, as the record wrote it.
    @inlinable public var latitude: JSONNumber { position.latitude }
    /// The fix's longitude in degrees, as the record wrote it.
    @inlinable public var longitude: JSONNumber { position.longitude }
    /// The fix's accuracy radius in metres as the record wrote it, when it had one.
    @inlinable public var accuracy: JSONNumber? { position.accuracy }
    /// The fix's latitude in degrees, for arithmetic.
    @inlinable public var latitudeDegrees: Double { position.latitudeDegrees }
    /// The fix's longitude in degrees, for arithmetic.
    @inlinable public var longitudeDegrees: Double { position.longitudeDegrees }
}
