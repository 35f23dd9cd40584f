/// A fix's `geo` object written out once, all but its `age_ms` value: what ``Splice`` copies
/// into every line the fix enriches (the fix itself and the events attached to it).
public struct RenderedGeo: Sendable, Hashable {
    /// `,"geo":{…,"age_ms":` then `,"h3":…}}`.
    private(set) var bytes: [UInt8] = []
    /// Where the `age_ms` value goes in ``bytes``.
    private(set) var ageOffset = 0

    /// Renders `geo`, all but its `age_ms` (each splice gives its own).
    /// - Parameters:
    ///   - geo: the fix's `geo` values.
    ///   - geofences: the fence set's table, when `geo` has a ``Enrichment/geofences`` list.
    public init(_ geo: Enrichment, geofences: GeofenceListTable? = nil) {
        render(geo, geofences: geofences)
    }

    /// Nothing rendered yet: a buffer for ``render(_:geofences:)`` to fill.
    package init() {}

    /// Renders `geo` in place of what this held, in the same buffer when it is large enough
    /// and not shared.
    ///
    /// A cache that renders over its entries so allocates nothing once its buffers have grown:
    /// a new `[UInt8]` a rendering went through the runtime's generic array allocation (about
    /// 540 instructions with its metadata lookup, callgrind) and a `free` of the old one, on
    /// every event whose session's rendering had left the renderer's cache. The text is written
    /// on the stack first and copied, so that a buffer is as long as its text (about 230 bytes)
    /// rather than the bound a writer needs (``Splice/capacity``, 512): the renderer's slots
    /// take half the memory, and half the cache lines.
    public mutating func render(_ geo: Enrichment, geofences: GeofenceListTable? = nil) {
        Self.render(geo, geofences: geofences) { text, ageOffset in
            self.ageOffset = ageOffset
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: text)
        }
    }

    /// Renders `geo`, all but its `age_ms`, on the stack, and calls `body` with the text and
    /// where the `age_ms` value goes in it: for a cache that keeps renderings in memory of its
    /// own (the stream's ``GeoRenderer``).
    @inline(__always)
    package static func render(_ geo: Enrichment, geofences: GeofenceListTable?,
                               _ body: (_ text: UnsafeBufferPointer<UInt8>, _ ageOffset: Int) -> Void) {
        let array = Splice.geofenceArray(geo, geofences)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Splice.capacity(geofences: array)) { buffer in
            var writer = ByteWriter(buffer)
            Splice.writeHead(geo, to: &writer)
            let ageOffset = writer.count
            Splice.writeTail(geo, geofences: array, to: &writer)
            body(writer.written, ageOffset)
        }
    }
}
