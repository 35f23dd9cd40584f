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
    /// - Throws: `IOError` when reading fails.
    mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
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
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw IOError(message: "cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { eof = true } else { buffer.append(contentsOf: chunk[0..<n]) }
        }
    }
}

/// Buffered writes to a file descriptor, flushed at 64 KiB and at the end.
final class OutputBuffer {
    private let fd: Int32
    private var bytes: [UInt8] = []

    init(fileDescriptor: Int32) {
        fd = fileDescriptor
        bytes.reserveCapacity(1 << 17)
    }

    func write(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
        if bytes.count >= 1 << 16 { flush() }
    }

    func writeLine(_ s: String) {
        write(s)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends a string's UTF-8 without flushing (end a line with ``endLine()``).
    @inline(__always) func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Ends a line, flushing at 64 KiB.
    @inline(__always) func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 16 { flush() }
    }

    func flush() {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // a closed pipe or full disk: nothing more can be written
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
/// input line, and exit with status 1 at the end when any line had no answer.
enum LineTool {
    /// - Parameters:
    ///   - errorLine: the output line for a line that failed, from the error's description.
    ///   - fastPath: tried first on a line's bytes: writes the whole answer line and returns
    ///     `true`, or writes nothing and returns `false` to leave the line to `answer`.
    ///   - answer: the output line for a line's fields; throws when the line has no answer.
    static func run(errorLine: (String) -> String, fastPath: (UnsafeBufferPointer<UInt8>, OutputBuffer) -> Bool = { _, _ in false },
                    _ answer: ([Substring]) throws -> String) throws {
        var reader = LineReader(fileDescriptor: STDIN_FILENO)
        let out = OutputBuffer(fileDescriptor: STDOUT_FILENO)
        var failed = 0
        try reader.forEachLine { bytes in
            if fastPath(bytes, out) { return }
            let line = String(decoding: bytes, as: UTF8.self)
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            do {
                out.writeLine(try answer(fields))
            } catch {
                failed += 1
                out.writeLine(errorLine("\(error)"))
            }
        }
        out.flush()
        if failed > 0 { throw ExitCode(1) }
    }
}
