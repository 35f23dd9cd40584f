import Logging
import ThreadSharing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler that keeps what it is given, as `"<level> <message> <metadata>"` lines, so
/// that a test can say what a log holds and what it must never hold (a key, a record).
///
/// Locked with ThreadSharing's pthread `Monitor`, which the thread sanitizer sees: the suites
/// that use it run under TSan.
public final class LogSink: LogHandler, Sendable {
    private let kept = Monitor<[String]>([])
    private let level: Monitor<Logger.Level>
    private let pauseMicroseconds: UInt32

    /// - Parameter pause: seconds each call sleeps before returning, to widen a window between
    ///   a log and the code after it.
    public init(level: Logger.Level = .trace, pause: Double = 0) {
        self.level = Monitor(level)
        pauseMicroseconds = UInt32(pause * 1e6)
    }

    /// What was logged, in order.
    public var lines: [String] { kept.withLock { $0 } }

    public var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    public var logLevel: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    public func log(event: LogEvent) {
        let text = "\(event.level) \(event.message) \(event.metadata ?? [:])"
        kept.withLock { $0.append(text) }
        if pauseMicroseconds > 0 { usleep(pauseMicroseconds) }
    }
}
