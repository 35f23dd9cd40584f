import ArgumentParser
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CLI's messages to standard error, written with `write(2)`.
///
/// Why not `FileHandle.standardError`: its `write` traps when the write fails, so
/// `geo-enrich enrich … 2>/dev/full` (or with standard error closed) died with SIGILL after
/// the run, and with it the exit status and, for a failure message, the reason. Here a failed
/// write is remembered instead; the command ends with ``exitStatus`` when it would otherwise
/// succeed, so the run's output never depends on standard error and the status still says a
/// message was lost.
enum StandardError {
    /// Whether a message could not be written (or standard error was closed at start); the
    /// progress line is written from the pipeline's reader thread, hence atomic.
    private static let lost = Atomic<Bool>(false)
    static var lostMessage: Bool { lost.load(ordering: .relaxed) }

    /// The exit status of a run whose only fault was a lost message: 74, `EX_IOERR` of
    /// sysexits(3).
    static let exitStatus: Int32 = 74

    /// Standard input, output and error must be open before any file is: a closed one would be
    /// the number the next `open` returns, and messages or records would land in that file.
    /// Each closed one is opened on `/dev/null`; a closed standard error counts as a lost
    /// message. Call first thing, before anything is opened.
    static func reserveStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                _ = dup2(null, fd)
                _ = close(null)
            }
            if fd == 2 { lost.store(true, ordering: .relaxed) }
        }
    }

    /// A data file is memory-mapped (GeoLookup's `DataFile`); overwritten or truncated in place
    /// while a run reads it, the next read of a page past its new end raises SIGBUS, which kills
    /// the process without a word. This says what happened instead, and exits with 74: the
    /// output holds whole lines only (it is written a line-complete buffer at a time), up to
    /// the last buffer written. Replacing a data file by renaming a new copy over it is safe:
    /// the run keeps the old file's pages.
    static func explainBusErrors() {
        signal(SIGBUS) { _ in
            // async-signal-safe only: write(2) of a constant, then _exit(2)
            let message: StaticString = "geo-enrich: a memory-mapped file changed under the run (SIGBUS): a data file was truncated or overwritten in place. Stopped; the output holds whole lines up to the last buffer written. Replace data files by renaming a new copy over them.\n"
            _ = Glibc.write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
            _exit(74)
        }
    }

    /// Writes `text` as it is.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    lost.store(true, ordering: .relaxed)
                    return
                }
                offset += n
            }
        }
    }

    /// Writes `message` and a line feed.
    static func line(_ message: String) {
        write(message + "\n")
    }
}

extension GeoEnrichCommand {
    /// argument-parser's `main()`, with the standard descriptors made safe first and a lost
    /// message turned into ``StandardError/exitStatus`` (74) for a run that otherwise succeeded.
    static func main() {
        StandardError.reserveStandardDescriptors()
        StandardError.explainBusErrors()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
        if StandardError.lostMessage { exit(withError: ExitCode(StandardError.exitStatus)) }
    }
}
