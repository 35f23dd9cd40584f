import GeoEnrich
import Testing

/// What a service sees with `import GeoEnrich` alone: the types of every layer, usable together.
@Suite struct OneImportTests {
    @Test func oneImportReachesEveryLayer() throws {
        // H3Core
        let cell = try H3Cell(LatLng(latitude: 49.888171, longitude: -97.131112), resolution: H3Resolution(9))
        #expect(cell.resolution == H3Resolution(rawValue: 9))
        // EnrichEngine and GeoModel
        let fix = try Fix(latitude: 49.888171, longitude: -97.131112, accuracy: 5, timestamp: Timestamp(milliseconds: 1_764_237_600_000))
        #expect(fix.timestamp.milliseconds == 1_764_237_600_000)
        #expect(SessionID("s-42") != nil)
        // RecordCodec
        let line = Array(#"{"type":"track","session_id":"s-42","timestamp":1764237612000}"#.utf8)
        guard case .record(let record) = RecordParser().parse(line) else {
            Issue.record("the line does not parse")
            return
        }
        #expect(record.sessionID == "s-42")
        // EnrichStream and LocationPush
        #expect(EnrichOptions().format == .canonical)
        #expect(PushPolicy().maxInFlight == 64)
    }
}
