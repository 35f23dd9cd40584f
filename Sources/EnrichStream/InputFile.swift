#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input of the stream: a file, or standard input (`-`), read with `read(2)`.
///
/// Waits for data with `poll(2)` in short slices so that a ``StopFlag`` raised while standard
/// input is a quiet pipe or a terminal is seen within a fifth of a second.
///
/// Regular files are read, not memory-mapped. A mapped file that shrinks while it is read (a
/// log rotated by copy-and-truncate) kills the process with SIGBUS at the first page past the
/// new end, with a torn last line; read, it simply ends, and ``truncation`` says so. Reading
/// costs no more here: on the 1 M-line stream the mapped and the read runs took the same CPU
/// (0.55–0.57 s user each, three runs of each, benchmarks/RESULTS.md). Standard input is read
/// from its current offset, as a shell's `{ read -r header; geo-enrich enrich; } < file` expects.
public final class InputFile {
    /// The name for messages: the path, or `standard input`.
    public let name: String
    /// The bytes left to read when it was opened, for a regular file (for progress), else `nil`.
    public let size: Int?
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Where reading began in a regular file (standard input may be past its start).
    private let startOffset: Int
    /// A regular file's size when it was opened: it may grow while it is read, never shrink.
    private let sizeWhenOpened: Int
    /// Bytes read so far.
    private var consumed = 0

    /// A regular file that ended short of its size when it was opened, or of the bytes already
    /// read from it: it was truncated while it was read.
    public struct Truncation: Sendable, Equatable {
        /// The file's size at the end, its size when it was opened, and the offset up to which
        /// it had been read.
        public let size: Int, sizeWhenOpened: Int, readUpTo: Int
    }
    /// Set when the file was found truncated at what looked like its end; reading stopped there.
    public private(set) var truncation: Truncation?

    /// Opens `path` for reading; `-` is standard input.
    /// - Parameter path: the file, or `-`.
    /// - Throws: ``StreamError`` naming the file when it cannot be opened.
    public init(path: String) throws(StreamError) {
        if path == "-" {
            name = "standard input"
            fd = STDIN_FILENO
            ownsDescriptor = false
        } else {
            name = path
            let d = open(path, O_RDONLY | O_CLOEXEC)
            guard d >= 0 else { throw StreamError("cannot open", path, errno: errno) }
            fd = d
            ownsDescriptor = true
        }
        var info = stat()
        let known = fstat(fd, &info) == 0
        if known && (info.st_mode & S_IFMT) == S_IFDIR {
            if ownsDescriptor { close(fd) }
            throw StreamError("cannot read", path, errno: EISDIR)
        }
        if known && (info.st_mode & S_IFMT) == S_IFREG {
            startOffset = max(0, Int(lseek(fd, 0, SEEK_CUR)))
            sizeWhenOpened = Int(info.st_size)
            size = max(0, sizeWhenOpened - startOffset)
        } else {
            startOffset = 0
            sizeWhenOpened = 0
            size = nil
        }
    }

    deinit {
        if ownsDescriptor { close(fd) }
        compressed?.deallocate()
    }

    /// Whether the first bytes have been looked at (gzip, or text).
    private var sniffed = false
    /// The decompressor of a gzip input, and its buffer of compressed bytes read.
    private var inflater: GzipInflater?
    private var compressed: UnsafeMutableRawBufferPointer?
    /// Whether the input is gzip-compressed (known after the first read).
    public var isCompressed: Bool { inflater != nil }

    /// How far into its first bytes an input is searched for a NUL byte, the sign of a binary
    /// file (NDJSON text has none; UTF-8 never encodes anything else as a zero byte).
    static let binarySniffLength = 4096

    /// Reads up to `buffer.count` bytes of the input's text: a gzip input (its first two bytes
    /// 1F 8B, RFC 1952) decompressed, any other as it is. An input whose first 4 KiB hold a
    /// NUL byte is refused as binary: before, a gzip file gave one `invalid_utf8` or
    /// `invalid_json` report a line and exit status 0.
    /// - Parameters:
    ///   - buffer: where to put them.
    ///   - stop: when raised, reading ends as at the end of the input.
    ///   - waitIfIdle: as ``readRaw(into:stop:waitIfIdle:)``.
    /// - Returns: as ``readRaw(into:stop:waitIfIdle:)``.
    /// - Throws: ``StreamError`` naming the file when reading fails, the input is binary, or its
    ///   gzip data are damaged or cut short.
    func read(into buffer: UnsafeMutableRawBufferPointer, stop: StopFlag,
              waitIfIdle: Bool = true) throws(StreamError) -> Int? {
        if inflater != nil { return try readInflated(into: buffer, stop: stop, waitIfIdle: waitIfIdle) }
        guard let n = try readRaw(into: buffer, stop: stop, waitIfIdle: waitIfIdle) else { return nil }
        guard !sniffed, n > 0 else { return n }
        sniffed = true
        let head = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<n])
        // (a first read of one byte, 1F, is taken as text: reads of a file or pipe start
        // with more than one byte whenever more were written)
        if GzipInflater.isGzip(head) {
            let inflater = try GzipInflater()
            inflater.feed(head)
            self.inflater = inflater
            return try readInflated(into: buffer, stop: stop, waitIfIdle: waitIfIdle)
        }
        if let nul = head.prefix(Self.binarySniffLength).firstIndex(of: 0) {
            throw StreamError("cannot read", name, reason: "it is a binary file (a NUL byte at byte \(nul + 1)), not "
                + "NDJSON text (gzip-compressed input is decompressed; other compressions are not)")
        }
        return n
    }

    /// Inflates into `buffer`, reading compressed bytes as needed.
    private func readInflated(into buffer: UnsafeMutableRawBufferPointer, stop: StopFlag,
                              waitIfIdle: Bool) throws(StreamError) -> Int? {
        let inflater = inflater!
        if compressed == nil { compressed = .allocate(byteCount: 1 << 16, alignment: 16) }
        let raw = compressed!
        while true {
            let produced: Int
            do { produced = try inflater.inflate(into: buffer) } catch {
                throw StreamError("cannot decompress", name, reason: "damaged gzip data (\(error.message))")
            }
            if produced > 0 { return produced }
            guard let n = try readRaw(into: raw, stop: stop, waitIfIdle: waitIfIdle) else { return nil }
            if n == 0 {
                // a stop, or a file cut short (its own message): end here; else the data must end
                // at the end of a member
                if !stop.isRequested && truncation == nil && !inflater.atMemberEnd {
                    throw StreamError("cannot decompress", name, reason: "the gzip data end inside a member (cut short?)")
                }
                return 0
            }
            inflater.feed(UnsafeRawBufferPointer(rebasing: raw[..<n]))
        }
    }

    /// Reads up to `buffer.count` bytes as they are in the file.
    /// - Parameters:
    ///   - buffer: where to put them.
    ///   - stop: when raised, reading ends as at the end of the input.
    ///   - waitIfIdle: when `false` and the input is a pipe or terminal with nothing to read right
    ///     now, return `nil` at once rather than wait (so a live stream's lines are not held back
    ///     until a batch fills).
    /// - Returns: the number read; 0 at the end of the input, or when `stop` is raised; `nil`
    ///   when idle and not asked to wait.
    /// - Throws: ``StreamError`` naming the file when reading fails.
    private func readRaw(into buffer: UnsafeMutableRawBufferPointer, stop: StopFlag,
                         waitIfIdle: Bool) throws(StreamError) -> Int? {
        while true {
            if stop.isRequested { return 0 }
            if size == nil {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, waitIfIdle ? 200 : 0)
                if ready == 0 {
                    if !waitIfIdle { return nil }
                    continue
                }
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw StreamError("cannot read", name, errno: errno)
                }
            }
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(fd, buffer.baseAddress, buffer.count)
            #endif
            if n > 0 {
                consumed += n
                return n
            }
            if n == 0 {
                if size != nil { checkTruncation() }
                return 0
            }
            if errno == EINTR || errno == EAGAIN { continue }
            throw StreamError("cannot read", name, errno: errno)
        }
    }

    /// At the end of a regular file: whether it is shorter than when it was opened, or than
    /// what was read from it (truncated, then written again, as a log rotated by
    /// copy-and-truncate is).
    private func checkTruncation() {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        let readUpTo = startOffset + consumed
        if Int(info.st_size) < max(sizeWhenOpened, readUpTo) {
            truncation = Truncation(size: Int(info.st_size), sizeWhenOpened: sizeWhenOpened, readUpTo: readUpTo)
        }
    }
}
