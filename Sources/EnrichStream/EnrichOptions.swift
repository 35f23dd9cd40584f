import EnrichEngine
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import RecordCodec

/// How a stream is enriched: the engine's rules and the stream's own settings.
public struct EnrichOptions: Sendable {
    /// The engine's rules (distance filter, expiry, H3 resolution, consent policy, …).
    public var engine = EngineConfiguration()
    /// Worker threads for parsing and deciding; default: the active processors.
    public var workers = ProcessorCount.active
    /// Write rejected fixes too, with `"rejected":"<reason>"` before the final `}`. Default off.
    public var emitRejected = false
    /// Stop after this many bad lines (exit status 1 in the CLI); `nil` for no limit.
    public var maxErrors: Int? = nil
    /// The records' format. Default the contract's canonical records.
    public var format = RecordFormat.canonical
    /// The size of a batch of input, in bytes (default 1 MiB); four batches are in flight, so
    /// this bounds the pipeline's memory. 1 MiB measured fastest here (a batch, its parse and
    /// its output stay in the cores' 1 MiB L2 share; 2 MiB was 25 % slower, 256 KiB paid more
    /// barriers).
    public var batchBytes = 1 << 20
    /// Where accepted fixes go once written (the push); `nil` for none.
    public var pushSink: (any AcceptedFixSink)? = nil
    /// Where geofence transitions go once written (the webhook); `nil` for none.
    public var geofenceSink: (any GeofenceTransitionSink)? = nil

    public init() {}
}

/// The number of processors this process may run on.
public enum ProcessorCount {
    public static var active: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

