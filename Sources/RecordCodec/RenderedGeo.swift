/// A fix's `geo` object written out once, all but its `age_ms` value: what ``Splice`` copies
/// into every line the fix enriches (the fix itself and the events attached to it).
public struct RenderedGeo: Sendable, Hashable {
    /// `,"geo":{…,"age_ms":` then `,"h3":…}}`.
    let bytes: [UInt8]
    /// Where the `age_ms` value goes in ``bytes``.
    let ageOffset: Int

    /// Renders `geo`, all but its `age_ms` (each splice gives its own).
    /// - Parameters:
    ///   - geo: the fix's `geo` values.
    ///   - geofences: the fence set's table, when `geo` has a ``Enrichment/geofences`` list.
    public init(_ geo: Enrichment, geofences: GeofenceListTable? = nil) {
        var ageOffset = 0
        let array = Splice.geofenceArray(geo, geofences)
        bytes = [UInt8](unsafeUninitializedCapacity: Splice.capacity(geofences: array)) { buffer, initialized in
            var writer = ByteWriter(buffer)
            Splice.writeHead(geo, to: &writer)
            ageOffset = writer.count
            Splice.writeTail(geo, geofences: array, to: &writer)
            initialized = writer.count
        }
        self.ageOffset = ageOffset
    }
}
