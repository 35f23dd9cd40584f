import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor line by line in 64 KiB blocks, handing each line (without its
/// `\n` or `\r\n`) to the caller as bytes. A final line without a newline still counts.
struct LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false

    init(fileDescriptor: Int32) { fd = fileDescriptor }

    /// Calls `body` for every line until end of input.
    ///
    /// - Parameter beforeRead: called before each read of more input (which may wait): the line
    ///   tools flush their answers there, so that a program feeding them a line at a time
    ///   through a pipe gets each answer before it sends the next.
    /// - Throws: `IOError` when reading fails.
    mutating func forEachLine(beforeRead: () -> Void = {}, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // emit every complete line in the buffer
            if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = nl
                if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
                start = nl + 1
                continue
            }
            if eof {
                if start < buffer.count {
                    try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start...])) }
                }
                return
            }
            buffer.removeSubrange(0..<start)
            start = 0
            beforeRead()
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw IOError(message: "cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        }
    }
}

/// Buffered writes to a file descriptor, flushed at 64 KiB and at the end, and after every
/// line when it is a terminal (so that answers appear as lines are typed).
///
/// A failed write (a full disk, a closed pipe with SIGPIPE ignored) is kept in ``failure``,
/// and the bytes from then on are dropped: the caller checks it and stops.
final class OutputBuffer {
    private let fd: Int32
    private var bytes: [UInt8] = []
    /// The `errno` of the first write that failed, if one did.
    private(set) var failure: Int32?
    /// Whether each line is written as it ends: the output is a terminal.
    private let lineBuffered: Bool

    init(fileDescriptor: Int32) {
        fd = fileDescriptor
        lineBuffered = isatty(fileDescriptor) == 1
        bytes.reserveCapacity(1 << 17)
    }

    func write(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
        if bytes.count >= 1 << 16 { flush() }
    }

    func writeLine(_ s: String) {
        append(s)
        endLine()
    }

    /// Appends a string's UTF-8 without flushing (end a line with ``endLine()``).
    @inline(__always) func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a static string's UTF-8 without flushing (no `String` made on the way).
    @inline(__always) func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Ends a line, flushing at 64 KiB.
    @inline(__always) func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if lineBuffered || bytes.count >= 1 << 16 { flush() }
    }

    func flush() {
        var off = 0
        while off < bytes.count, failure == nil {
            let n = bytes[off...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // a closed pipe or full disk: nothing more can be written
                failure = errno
                break
            }
            off += n
        }
        bytes.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// An input or output failure, with a message that names what failed.
struct IOError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A reason why one input line has no answer.
struct LineError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// The loop shared by the line tools (`h3 …`, `lookup`): read standard input line by line,
/// split each line into fields (spaces, tabs or commas), write exactly one answer line per
/// input line, and exit with status 1 at the end when any line had no answer, after a
/// summary on standard error (how many lines failed of how many, and the first one's number
/// and reason). Output that cannot be written stops the run with an error.
enum LineTool {
    /// - Parameters:
    ///   - errorLine: the output line for a line that failed, from the error's description.
    ///   - fastPath: tried first on a line's bytes: writes the whole answer line and returns
    ///     `true`, or writes nothing and returns `false` to leave the line to `answer`.
    ///   - answer: the output line for a line's fields; throws when the line has no answer.
    static func run(errorLine: (String) -> String, fastPath: (UnsafeBufferPointer<UInt8>, OutputBuffer) -> Bool = { _, _ in false },
                    _ answer: ([Substring]) throws -> String) throws {
        try runLines(errorLine: errorLine, fastPath: fastPath) { line in
            try answer(line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }))
        }
    }

    /// The same loop for tools that read a whole line as one value (a GeoJSON geometry): `answer`
    /// gets the line's text, unsplit.
    static func runLines(errorLine: (String) -> String, fastPath: (UnsafeBufferPointer<UInt8>, OutputBuffer) -> Bool = { _, _ in false },
                         _ answer: (String) throws -> String) throws {
        var reader = LineReader(fileDescriptor: STDIN_FILENO)
        let out = OutputBuffer(fileDescriptor: STDOUT_FILENO)
        var lines = 0, failed = 0
        var firstFailure: (line: Int, reason: String)? = nil
        do {
            try reader.forEachLine(beforeRead: { out.flush() }) { bytes in
                guard out.failure == nil else { throw StopReading() }
                lines += 1
                if fastPath(bytes, out) { return }
                let line = String(decoding: bytes, as: UTF8.self)
                do {
                    out.writeLine(try answer(line))
                } catch {
                    failed += 1
                    if firstFailure == nil { firstFailure = (lines, "\(error)") }
                    out.writeLine(errorLine("\(error)"))
                }
            }
        } catch is StopReading {}
        out.flush()
        if let e = out.failure {
            throw IOError(message: "cannot write standard output: \(String(cString: strerror(e))); stopped after \(lines) input lines")
        }
        if let first = firstFailure {
            StandardError.line("geo-enrich: \(failed) of \(lines) lines had no answer; the first, line \(first.line): \(first.reason)")
            throw ExitCode(1)
        }
    }

    /// Ends the read loop early (the output has failed).
    private struct StopReading: Error {}
}
