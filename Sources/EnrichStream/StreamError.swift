#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure of the stream's input or output, naming the file and what went wrong. (Bad lines
/// are not errors: they are reported and the run goes on.)
public struct StreamError: Error, CustomStringConvertible, Sendable {
    /// What was being done, e.g. `cannot read`.
    public let action: String
    /// The file's name as the user gave it (`standard input` for `-`).
    public let file: String
    /// The system's reason.
    public let reason: String

    init(_ action: String, _ file: String, errno code: Int32) {
        self.action = action
        self.file = file
        reason = String(cString: strerror(code))
    }

    init(_ action: String, _ file: String, reason: String) {
        self.action = action
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(action) \(file): \(reason)" }
}
