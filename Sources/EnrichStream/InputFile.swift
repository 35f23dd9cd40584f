#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input of the stream: a file, or standard input (`-`), read with `read(2)`.
///
/// Waits for data with `poll(2)` in short slices so that a ``StopFlag`` raised while standard
/// input is a quiet pipe or a terminal is seen within a fifth of a second.
public final class InputFile {
    /// The name for messages: the path, or `standard input`.
    public let name: String
    /// The file's size in bytes when it is a regular file (for progress), else `nil`.
    public let size: Int?
    private let fd: Int32
    private let ownsDescriptor: Bool

    /// Whether a regular file is memory-mapped rather than read.
    private let mapping: Bool

    /// Opens `path` for reading; `-` is standard input.
    /// - Parameters:
    ///   - path: the file, or `-`.
    ///   - mapping: map a regular file into memory and read it in place (the default, and the
    ///     faster); `false` reads it with `read(2)` like a pipe.
    /// - Throws: ``StreamError`` naming the file when it cannot be opened.
    public init(path: String, mapping: Bool = true) throws(StreamError) {
        self.mapping = mapping
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
        size = known && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// The file mapped into memory, for a regular non-empty file; `nil` otherwise (then it is
    /// read with ``read(into:stop:waitIfIdle:)``).
    func map() -> MappedInput? {
        guard mapping, let size, size > 0 else { return nil }
        return MappedInput(fd: fd, size: size)
    }

    /// Reads up to `buffer.count` bytes.
    /// - Parameters:
    ///   - buffer: where to put them.
    ///   - stop: when raised, reading ends as at the end of the input.
    ///   - waitIfIdle: when `false` and the input is a pipe or terminal with nothing to read right
    ///     now, return `nil` at once rather than wait (so a live stream's lines are not held back
    ///     until a batch fills).
    /// - Returns: the number read; 0 at the end of the input, or when `stop` is raised; `nil`
    ///   when idle and not asked to wait.
    /// - Throws: ``StreamError`` naming the file when reading fails.
    func read(into buffer: UnsafeMutableRawBufferPointer, stop: StopFlag,
              waitIfIdle: Bool = true) throws(StreamError) -> Int? {
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
            if n >= 0 { return n }
            if errno == EINTR || errno == EAGAIN { continue }
            throw StreamError("cannot read", name, errno: errno)
        }
    }
}
