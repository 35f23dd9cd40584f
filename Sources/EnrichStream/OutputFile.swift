#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output of the stream (the enriched lines, the error lines): a file, created or truncated,
/// or standard output or error, written with `write(2)` from a buffer.
public final class OutputFile {
    /// The name for messages.
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    /// Bytes written so far.
    public private(set) var bytesWritten = 0
    /// Flushed when the buffer reaches this size.
    private static let flushSize = 1 << 20

    /// Standard output.
    public static func standardOutput() -> OutputFile { OutputFile(fd: STDOUT_FILENO, name: "standard output") }
    /// Standard error.
    public static func standardError() -> OutputFile { OutputFile(fd: STDERR_FILENO, name: "standard error") }

    private init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
        ownsDescriptor = false
        buffer.reserveCapacity(Self.flushSize + (1 << 16))
    }

    /// Creates (or truncates) the file at `path`; `-` is standard output.
    /// - Throws: ``StreamError`` naming the file when it cannot be opened.
    public init(path: String) throws(StreamError) {
        if path == "-" {
            fd = STDOUT_FILENO
            name = "standard output"
            ownsDescriptor = false
        } else {
            let d = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard d >= 0 else { throw StreamError("cannot create", path, errno: errno) }
            fd = d
            name = path
            ownsDescriptor = true
        }
        buffer.reserveCapacity(Self.flushSize + (1 << 16))
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Appends bytes, writing them out once a megabyte is buffered.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) throws(StreamError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends bytes (whole lines), writing them out once a megabyte is buffered; a large piece
    /// is written directly rather than copied.
    func append(_ bytes: [UInt8]) throws(StreamError) {
        if buffer.isEmpty && bytes.count >= Self.flushSize {
            try write(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Below this many bytes, a gather list is copied into the buffer (a live stream's small
    /// batches, written once a megabyte is buffered or the input pauses); a larger one is
    /// written as it is with `writev(2)`.
    private static let gatherCopyLimit = 1 << 16

    /// Appends the bytes of `list`'s pieces, in order. The list may be changed (a short write
    /// advances its pieces).
    func append(_ list: inout GatherList) throws(StreamError) {
        list.close()
        if list.byteCount < Self.gatherCopyLimit {
            for piece in list.pieces {
                buffer.append(contentsOf: UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len))
            }
            if buffer.count >= Self.flushSize { try flush() }
            return
        }
        try flush()
        var first = 0
        while first < list.pieces.count {
            // IOV_MAX (1,024 on Linux and Darwin) pieces a call at most
            let pieces = list.pieces
            let n = writev(fd, pieces.baseAddress! + first, Int32(min(1024, pieces.count - first)))
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw StreamError("cannot write", name, errno: errno)
            }
            bytesWritten += n
            first = list.consume(n, from: first)
        }
    }

    /// Appends bytes and a `\n`.
    func appendLine(_ bytes: UnsafeBufferPointer<UInt8>) throws(StreamError) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends text and a `\n`.
    public func appendLine(_ text: String) throws(StreamError) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Appends `bytes[range]` and a `\n`.
    func appendLine(_ bytes: [UInt8], _ range: Range<Int>) throws(StreamError) {
        buffer.append(contentsOf: bytes[range])
        buffer.append(0x0A)
        if buffer.count >= Self.flushSize { try flush() }
    }

    /// Writes out what is buffered.
    /// - Throws: ``StreamError`` naming the file when writing fails (a full disk, a closed pipe).
    public func flush() throws(StreamError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        try write(buffer)
    }

    /// Writes `bytes` out, all of them.
    private func write(_ bytes: [UInt8]) throws(StreamError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { b in
                #if canImport(Glibc)
                Glibc.write(fd, b.baseAddress! + offset, b.count - offset)
                #else
                Darwin.write(fd, b.baseAddress! + offset, b.count - offset)
                #endif
            }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw StreamError("cannot write", name, errno: errno)
            }
            offset += n
            bytesWritten += n
        }
    }
}
