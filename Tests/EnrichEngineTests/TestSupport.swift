import GeoBridge
import GeoLookup
import H3Core

@testable import EnrichEngine

/// An enricher with the real H3 cell and no lookup: the engine's rules do not depend on the
/// country or postal code, and the tests need no data files.
struct H3OnlyEnricher: FixEnricher {
    var calls = 0
    mutating func enrich(_ position: ReportedPosition, at timestamp: Timestamp) -> Enrichment {
        calls += 1
        let cell = try! H3Cell(LatLng(latitude: position.latitudeDegrees, longitude: position.longitudeDegrees),
                               resolution: .finest)
        return Enrichment(position: position, fixTimestamp: timestamp, h3: cell, country: nil, postal: nil)
    }
}

func sid(_ s: String) -> SessionID { SessionID(s)! }
func ts(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }
func fix(_ lat: Double, _ lng: Double, at ms: Int64, accuracy: Double? = nil) -> Fix {
    try! Fix(latitude: lat, longitude: lng, accuracy: accuracy, timestamp: ts(ms))
}

/// A point `metres` from (lat, lng) along a constant bearing, found by bisection on PROJ's
/// geodesic distance (the reference), so the test's distances are WGS84-exact.
func point(from lat: Double, _ lng: Double, metres: Double, bearingDegrees: Double) -> (Double, Double) {
    let b = bearingDegrees * .pi / 180
    var lo = 0.0, hi = 0.01
    let g = Geodesic.wgs84
    func at(_ s: Double) -> (Double, Double) {
        (lat + s * cosine(b), lng + s * sine(b) / cosine(lat * .pi / 180))
    }
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        let p = at(mid)
        if g.distance(from: GeoPoint(latitude: lat, longitude: lng), to: GeoPoint(latitude: p.0, longitude: p.1)) < metres {
            lo = mid
        } else {
            hi = mid
        }
    }
    return at(hi)
}

#if canImport(Glibc)
import Glibc
func cosine(_ x: Double) -> Double { Glibc.cos(x) }
func sine(_ x: Double) -> Double { Glibc.sin(x) }
#else
import Darwin
func cosine(_ x: Double) -> Double { Darwin.cos(x) }
func sine(_ x: Double) -> Double { Darwin.sin(x) }
#endif
