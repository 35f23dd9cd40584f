/// A monotonic stopwatch for the metrics' timers, which take whole nanoseconds: shared by the
/// enricher and the push so that the conversion from `Duration` is written once.
package struct Stopwatch: Sendable {
    private let start = ContinuousClock.now

    package init() {}

    /// Nanoseconds since the stopwatch was made (saturating at `Int64.max`).
    package var elapsedNanoseconds: Int64 {
        let (seconds, attoseconds) = start.duration(to: .now).components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ attoseconds / 1_000_000_000
    }
}
