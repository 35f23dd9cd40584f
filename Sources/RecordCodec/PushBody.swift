import GeoModel

/// The body of the MobileTracker "Update Session Location" request for a fix,
/// `{"latitude":…,"longitude":…,"accuracy":…}` (accuracy left out when the fix had none), the
/// numbers written as the record's `geo` writes them.
public enum PushBody {
    /// - Parameters:
    ///   - latitude: degrees, as read.
    ///   - longitude: degrees, as read.
    ///   - accuracy: metres, as read, or `nil`.
    /// - Returns: the JSON bytes.
    public static func json(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 160) { buffer in
            var w = ByteWriter(buffer)
            w.write(#"{"latitude":"#)
            OrjsonText.writeNumber(latitude, to: &w)
            w.write(#","longitude":"#)
            OrjsonText.writeNumber(longitude, to: &w)
            if let accuracy {
                w.write(#","accuracy":"#)
                OrjsonText.writeNumber(accuracy, to: &w)
            }
            w.write(UInt8(ascii: "}"))
            return Array(w.written)
        }
    }
}
