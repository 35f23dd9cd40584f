import ArgumentParser
import EnrichEngine
import GeoLookup

/// `enrich`'s geofence options (contract rule 11).
struct GeofenceOptions: ParsableArguments {
    @Option(name: .customLong("geofences"), help: ArgumentHelp(
        "GeoJSON fences (a FeatureCollection, or one Feature a line): each accepted fix's geo gets \"geofences\":[ids] last, and the sessions' enter and exit transitions are counted (contract rule 11). A broken file is refused before any input is read.",
        valueName: "file"))
    var geofences: String?

    @Option(name: .customLong("geofence-events"), help: ArgumentHelp(
        "Write each geofence transition to this file, one JSON object a line in input order: {\"session_id\",\"fence\",\"transition\",\"timestamp\",\"latitude\",\"longitude\"}.",
        valueName: "file"))
    var events: String?

    @Option(name: .customLong("geofence-dwell"), parsing: .unconditional, help: ArgumentHelp(
        "Also give a dwell transition once per stay, at the first accepted fix at least this many seconds after the stay's enter.",
        valueName: "seconds"))
    var dwell: Double?

    func validate() throws {
        if geofences == nil && (events != nil || dwell != nil) {
            throw ValidationError("--geofence-events and --geofence-dwell need --geofences")
        }
        if let dwell, !(dwell.isFinite && dwell >= 0 && dwell < 1e12) {
            throw ValidationError("--geofence-dwell must be a non-negative number of seconds, not \(dwell)")
        }
    }

    /// Milliseconds of the dwell time, when given.
    var dwellMilliseconds: Int64? { dwell.map { Int64(($0 * 1000).rounded()) } }

    /// The fence file, read and checked; `nil` without `--geofences`.
    /// - Throws: ``GeofenceFileError`` naming the feature and the problem.
    func load() throws(GeofenceFileError) -> GeofenceSet? {
        guard let geofences else { return nil }
        return try GeofenceSet(contentsOf: geofences)
    }
}
