import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output file: lines are appended in memory by the request handlers and written by this
/// service every ``interval`` and once more after the server has stopped (the service group
/// stops the server first), so that no accepted request's line is lost on a graceful shutdown.
///
/// A write that fails (a full disk, a closed file) stops the service with an error naming the
/// file, which stops the whole service group: the service must not go on accepting records it
/// can no longer keep.
public final class NDJSONOutput: Service, Sendable {
    public let path: String
    let interval: Duration
    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])
    /// Set once a write has failed: later requests are refused rather than accepted and lost.
    private let failure = Mutex<String?>(nil)
    private let logger: Logger

    /// Opens (creates, or appends to) `path`.
    public init(path: String, interval: Duration, logger: Logger) throws {
        self.path = path
        self.interval = interval
        self.logger = logger
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, errno: errno) }
    }

    deinit { close(descriptor) }

    /// Why the output can take no more lines, once a write has failed.
    public var failed: String? { failure.withLock { $0 } }

    /// Adds one line (without its `\n`).
    public func append(_ line: [UInt8]) {
        pending.withLock { buffer in
            buffer.append(contentsOf: line)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes what was appended so far.
    public func flush() throws {
        let bytes = pending.withLock { buffer in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = OutputError(path: path, errno: errno)
                failure.withLock { $0 = error.description }
                throw error
            }
            written += n
        }
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
            try flush()
        }
        try flush()
        logger.info("output flushed", metadata: ["path": "\(path)"])
    }
}

/// A failed open or write of the output file, with the system's reason.
public struct OutputError: Error, CustomStringConvertible {
    public let path: String
    public let errno: Int32
    public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
