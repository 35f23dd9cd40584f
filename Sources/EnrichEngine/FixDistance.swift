import GeoLookup

/// The distance filter's question, "is this fix at least d metres from the last accepted
/// one?", answered on the WGS84 ellipsoid without PROJ for almost every pair.
///
/// Far pairs are decided by lower bounds (a degree of latitude is at least 110.5 km; below
/// 85.2° a degree of longitude at least 9.2 km); near pairs by ``LocalDistance`` and its
/// error bound (about 1e-6 m at 100 m); only a pair within that bound of the threshold, or
/// near a pole, goes to PROJ's `geod_inverse`.
enum FixDistance {
    /// Whether `(latitude, longitude)` lies at least `threshold` metres from `from`.
    ///
    /// - Complexity: O(1), no trigonometric call outside the PROJ fallback.
    @inline(__always)
    static func isAtLeast(_ threshold: Double, from: LocalDistance.Point, latitude: Double, longitude: Double) -> Bool {
        guard abs(from.latitude) <= 85, abs(latitude) <= 85, threshold <= 5_000 else {
            return proj(from, latitude, longitude) >= threshold
        }
        let dPhi = abs(latitude - from.latitude)
        // ≥ 0.05° of latitude is ≥ 5.5 km
        if dPhi >= 0.05 { return true }
        var dLng = abs(longitude - from.longitude)
        if dLng > 180 { dLng = 360 - dLng }
        // below 85.05°, 0.6° of longitude is ≥ 5.8 km along any path within the band
        if dLng >= 0.6 { return true }
        let d = LocalDistance.metres(from: from, lat2: latitude, lng2: longitude)
        let bound = LocalDistance.errorBound(distance: d, absTan: from.absTanLatitude)
        if d - bound >= threshold { return true }
        if d + bound < threshold { return false }
        return proj(from, latitude, longitude) >= threshold
    }

    private static func proj(_ from: LocalDistance.Point, _ latitude: Double, _ longitude: Double) -> Double {
        LocalDistance.geodesic(lat1: from.latitude, lng1: from.longitude, lat2: latitude, lng2: longitude)
    }
}
