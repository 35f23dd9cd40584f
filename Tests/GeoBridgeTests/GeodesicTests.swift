import GeoBridge
import Testing

// Reference values come from pyproj 3.7.2 (bundling PROJ 9.5.1), whose Karney algorithm ours
// follows to the bit (GeodesicExactnessTests checks that on thousands of pairs). Regenerate with:
//
//   pip install pyproj
//   python3 -c "from pyproj import Geod; print(Geod(ellps='WGS84').inv(lon1, lat1, lon2, lat2))"
//
// pyproj takes longitude first and returns (azimuth at start, back azimuth at end, metres);
// the final azimuth here is the back azimuth + 180°, normalised to −180...180.

/// One inverse problem with pyproj's answer.
struct GeodesicReference: Sendable, CustomTestStringConvertible {
    let name: String
    let from: GeoPoint
    let to: GeoPoint
    /// Metres.
    let distance: Double
    /// Degrees; nil where the azimuth is not unique (antipodal points).
    let initialAzimuth: Double?
    let finalAzimuth: Double?

    var testDescription: String { name }
}

/// Two points whose pyproj distance is just below or just above the 100 m distance filter.
/// Each end point was made with `Geod.fwd` from the start point (13.4° E) at the given azimuth
/// and a distance of 99.7 or 100.3 m, rounded to 9 decimals, and then measured again with
/// `Geod.inv`; `distance` is that second measurement.
struct ThresholdCase: Sendable, CustomTestStringConvertible {
    let from: GeoPoint
    let to: GeoPoint
    /// Metres, by pyproj.
    let distance: Double
    let azimuth: Double

    var testDescription: String { "lat \(from.latitude), azimuth \(azimuth), \(distance) m" }
}

@Suite struct GeodesicTests {
    /// Metres; far above floating-point noise (~4 nm at 20 000 km) and far below anything
    /// that matters to a 100 m filter.
    static let distanceTolerance = 1e-6
    /// Degrees.
    static let azimuthTolerance = 1e-9

    static let references: [GeodesicReference] = [
        GeodesicReference(
            name: "one degree of longitude along the equator",
            from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0, longitude: 1),
            distance: 111_319.49079327357, initialAzimuth: 90, finalAzimuth: 90),
        GeodesicReference(
            name: "one degree of latitude along the prime meridian",
            from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 1, longitude: 0),
            distance: 110_574.38855779878, initialAzimuth: 0, finalAzimuth: 0),
        GeodesicReference(
            name: "JFK to Singapore (geodesic.h's own example)",
            from: GeoPoint(latitude: 40.64, longitude: -73.78),
            to: GeoPoint(latitude: 1.36, longitude: 103.99),
            distance: 15_347_512.94051294,
            initialAzimuth: 3.3057734780176125, finalAzimuth: 177.48784020815515),
        GeodesicReference(
            name: "Greenwich to Paris",
            from: GeoPoint(latitude: 51.4778, longitude: -0.0015),
            to: GeoPoint(latitude: 48.8566, longitude: 2.3522),
            distance: 336_539.799160693,
            initialAzimuth: 149.1153393066325, finalAzimuth: 150.92336380354737),
        GeodesicReference(
            name: "Sydney to Heathrow, across the antimeridian",
            from: GeoPoint(latitude: -33.8688, longitude: 151.2093),
            to: GeoPoint(latitude: 51.47, longitude: -0.4543),
            distance: 17_011_038.364536177,
            initialAzimuth: -40.555697399342044, finalAzimuth: -120.02827703199398),
        GeodesicReference(
            name: "nearly antipodal, where naive methods fail to converge",
            from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0.5, longitude: 179.5),
            distance: 19_936_288.578965314,
            initialAzimuth: 25.67187286829188, finalAzimuth: 154.3270854699416),
        GeodesicReference(
            name: "antipodal on the equator: half a meridian",
            from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0, longitude: 180),
            distance: 20_003_931.458625447, initialAzimuth: nil, finalAzimuth: nil),
    ]

    // Start point longitude 13.4° E throughout; azimuths 0° (north), 90° (east), 37°.
    static let thresholdCases: [ThresholdCase] = [
        // Equator.
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0.000901656, longitude: 13.4),
              distance: 99.69995924027822, azimuth: 0),
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0.000907083, longitude: 13.4),
              distance: 100.30004583516377, azimuth: 0),
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0, longitude: 13.40089562),
              distance: 99.69996234423301, azimuth: 90),
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0, longitude: 13.40090101),
              distance: 100.29997439962045, azimuth: 90),
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0.000720095, longitude: 13.400538998),
              distance: 99.70003330453294, azimuth: 37),
        .init(from: .init(latitude: 0, longitude: 13.4), to: .init(latitude: 0.000724428, longitude: 13.400542241),
              distance: 100.29993492715145, azimuth: 37),
        // 45° N.
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 45.000897133, longitude: 13.4),
              distance: 99.69999273172128, azimuth: 0),
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 45.000902532, longitude: 13.4),
              distance: 100.29999329340342, azimuth: 0),
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 44.999999993, longitude: 13.401264477),
              distance: 99.70000950717885, azimuth: 90),
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 44.999999993, longitude: 13.401272087),
              distance: 100.30003392230888, azimuth: 90),
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 45.00071648, longitude: 13.400760991),
              distance: 99.70003362332365, azimuth: 37),
        .init(from: .init(latitude: 45, longitude: 13.4), to: .init(latitude: 45.000720792, longitude: 13.40076557),
              distance: 100.30001636128488, azimuth: 37),
        // 69° N, where a degree of longitude is about 40 km and spherical shortcuts drift.
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 69.000893777, longitude: 13.4),
              distance: 99.70004606213105, azimuth: 0),
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 69.000899155, longitude: 13.4),
              distance: 100.29995731076528, azimuth: 0),
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 68.999999982, longitude: 13.402491863),
              distance: 99.7000143106807, azimuth: 90),
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 68.999999982, longitude: 13.402506859),
              distance: 100.3000077348292, azimuth: 90),
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 69.000713795, longitude: 13.401499689),
              distance: 99.69998598831306, azimuth: 37),
        .init(from: .init(latitude: 69, longitude: 13.4), to: .init(latitude: 69.000718091, longitude: 13.401508715),
              distance: 100.3000319659456, azimuth: 37),
    ]

    /// The ellipsoid is WGS84: its quarter meridian (equator to pole) is
    /// 10,001,965.7293 m and a quarter of its equator πa/2 = 10,018,754.1714 m (published WGS84
    /// figures; a wrong a or f moves either by metres).
    @Test func wgs84Ellipsoid() {
        let geodesic = Geodesic.wgs84
        let meridian = geodesic.distance(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 90, longitude: 0))
        #expect(abs(meridian - 10_001_965.7293) < 1e-3)
        let equator = geodesic.distance(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 0, longitude: 90))
        #expect(abs(equator - 10_018_754.1714) < 1e-3)
    }

    @Test(arguments: references)
    func inverseMatchesPyproj(_ reference: GeodesicReference) {
        let solution = Geodesic.wgs84.inverse(from: reference.from, to: reference.to)
        #expect(abs(solution.distance - reference.distance) <= Self.distanceTolerance)
        if let initialAzimuth = reference.initialAzimuth, let finalAzimuth = reference.finalAzimuth {
            #expect(abs(solution.initialAzimuth - initialAzimuth) <= Self.azimuthTolerance)
            #expect(abs(solution.finalAzimuth - finalAzimuth) <= Self.azimuthTolerance)
        }
    }

    @Test(arguments: references)
    func distanceEqualsInverseDistance(_ reference: GeodesicReference) {
        let geodesic = Geodesic.wgs84
        #expect(geodesic.distance(from: reference.from, to: reference.to)
                == geodesic.inverse(from: reference.from, to: reference.to).distance)
    }

    @Test(arguments: references)
    func distanceIsSymmetric(_ reference: GeodesicReference) {
        let geodesic = Geodesic.wgs84
        let there = geodesic.distance(from: reference.from, to: reference.to)
        let back = geodesic.distance(from: reference.to, to: reference.from)
        #expect(abs(there - back) <= Self.distanceTolerance)
    }

    /// The property the 100 m distance filter relies on, at three latitudes and three headings.
    @Test(arguments: thresholdCases)
    func hundredMetreThreshold(_ threshold: ThresholdCase) {
        let distance = Geodesic.wgs84.distance(from: threshold.from, to: threshold.to)
        #expect(abs(distance - threshold.distance) <= Self.distanceTolerance)
        if threshold.distance < 100 {
            #expect(distance < 100)
        } else {
            #expect(distance >= 100)
        }
    }

    @Test func samePointIsZeroMetresApart() {
        let point = GeoPoint(latitude: 52.52, longitude: 13.405)
        #expect(Geodesic.wgs84.distance(from: point, to: point) == 0)
    }

    @Test func longitudeIsPeriodic() {
        let geodesic = Geodesic.wgs84
        let from = GeoPoint(latitude: 10, longitude: 20)
        let east = geodesic.distance(from: from, to: GeoPoint(latitude: 11, longitude: 21))
        let wrapped = geodesic.distance(from: from, to: GeoPoint(latitude: 11, longitude: 21 - 360))
        #expect(abs(east - wrapped) <= Self.distanceTolerance)
    }

    /// The contract (PROJ's, and ours) for latitudes outside −90...90 is NaN, which fails every `<` comparison.
    @Test(arguments: [91.0, -90.5, .nan, .infinity])
    func invalidLatitudeGivesNaN(_ latitude: Double) {
        let geodesic = Geodesic.wgs84
        let solution = geodesic.inverse(from: GeoPoint(latitude: latitude, longitude: 0),
                                        to: GeoPoint(latitude: 0, longitude: 0))
        #expect(solution.distance.isNaN)
        #expect(solution.initialAzimuth.isNaN)
        #expect(!(geodesic.distance(from: GeoPoint(latitude: latitude, longitude: 0),
                                    to: GeoPoint(latitude: 0, longitude: 0)) < 100))
    }

    /// `Geodesic` is `Sendable`: one value shared by concurrent tasks gives the same answers.
    @Test func sharedAcrossTasks() async {
        let geodesic = Geodesic.wgs84
        let reference = Self.references[2]
        let distances = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<8 {
                group.addTask { geodesic.distance(from: reference.from, to: reference.to) }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(distances.count == 8)
        #expect(Set(distances).count == 1)
    }
}
