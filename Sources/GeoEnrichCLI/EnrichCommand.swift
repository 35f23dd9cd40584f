import ArgumentParser
import Dispatch
import EnrichEngine
import EnrichStream
import GeoEnrichOptions
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import GeoLookup
import H3Core
import LocationPush
import RecordCodec
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geo-enrich enrich`: NDJSON records in, the same records enriched out (CONTRACT.md).
struct EnrichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrich",
        abstract: "Enrich NDJSON location fixes and events (the contract's rules), keeping every input byte.",
        discussion: """
            Reads the INPUT files in order as one stream (standard input when none, or `-`) and \
            writes each event and accepted fix as its input line with ,"geo":{...} inserted before \
            the final }. Rejected fixes are counted, not written (unless --emit-rejected). Bad \
            lines go to the error output as {"line":N,"reason":"<code>","raw":"..."} and the run \
            goes on. A summary goes to standard error at the end.

            Exit status: 0 when the input was read to its end (bad lines included); 1 when \
            --max-errors was reached or an input or output failed; 3 when some pushes could not be \
            delivered (they are in the dead-letter file); 64 for a usage error; 130 or 143 after \
            SIGINT or SIGTERM (what was read is finished, written and counted first).
            """)

    @Argument(help: "Input files, read in order as one stream; `-` or none for standard input.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "Write the enriched lines to this file instead of standard output.")
    var output: String?

    @Option(help: "Write bad-line reports (NDJSON) to this file instead of standard error.")
    var errors: String?

    @Option(help: "Write the run's statistics (JSON) to this file.")
    var stats: String?

    @OptionGroup(title: "The engine") var engine: EngineOptions

    @Option(help: "Record format: canonical, eqworks, mobiletracker or datacloud (see the README).")
    var format: RecordFormat = .canonical

    @Flag(name: .customLong("emit-rejected"), help: "Also write rejected fixes, with \"rejected\":\"<reason>\" before the final }.")
    var emitRejected = false

    @Option(name: .customLong("max-errors"), parsing: .unconditional, help: "Stop with exit status 1 after this many bad lines.")
    var maxErrors: Int?

    @Option(parsing: .unconditional, help: "Worker threads (default: the processors available).")
    var workers: Int?

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: ArgumentHelp("Input batch size in KiB (tuning).", visibility: .hidden))
    var batchSize: Int?

    @Option(help: ArgumentHelp(DataDirectory.optionHelp))
    var data: String?

    @Flag(help: "No summary line and no progress line on standard error.")
    var quiet = false

    @Flag(name: .customLong("no-progress"), help: "No live progress line (shown only when standard error is a terminal).")
    var noProgress = false

    @OptionGroup(title: "Geofences") var fences: GeofenceOptions

    @OptionGroup(title: "Push") var push: PushOptions

    func validate() throws {
        if let maxErrors, maxErrors < 1 { throw ValidationError("--max-errors must be at least 1") }
        if let workers, !(1...256).contains(workers) { throw ValidationError("--workers must be 1 to 256") }
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be 1 or more, not \(batchSize)") }
        try OutputPaths.check(inputs: inputs, outputs: [("-o", output), ("--errors", errors), ("--stats", stats),
                                                        ("--geofence-events", fences.events),
                                                        ("--geofence-dead-letter", fences.webhook == nil ? nil : fences.deadLetter),
                                                        ("--push-dead-letter", push.pushURL == nil ? nil : push.pushDeadLetter)])
    }

    func run() throws {
        var options = EnrichOptions()
        options.engine = engine.configuration
        options.engine.geofenceDwell = fences.dwellMilliseconds
        options.emitRejected = emitRejected
        options.maxErrors = maxErrors
        options.format = format
        if let workers { options.workers = workers }
        if let batchSize { options.batchBytes = max(4, batchSize) << 10 }

        let pusher = try push.makePusher()
        if let pusher { options.pushSink = PusherSink(pusher: pusher) }
        let webhook = try fences.makeWebhook(push)
        if let webhook { options.geofenceSink = WebhookSink(webhook: webhook) }

        let started = DispatchTime.now().uptimeNanoseconds
        let pipeline: EnrichPipeline
        let files: [InputFile]
        let out: OutputFile
        let errorOutput: OutputFile
        let statsFile: OutputFile?
        let eventsFile: OutputFile?
        do {
            // first: a broken fence file stops the run before any output is created (the fences
            // are read while the data files are opened, on two threads)
            let lookup = try LocationLookup.opening(dataDirectory: DataDirectory.resolve(data),
                                                    postalMaxDistance: engine.postalMaxDistance,
                                                    postalCountries: engine.postalCountries.systems,
                                                    timeZones: engine.timeZone, geofenceFile: fences.geofences)
            pipeline = try EnrichPipeline(options: options, lookup: lookup)
            files = try (inputs.isEmpty ? ["-"] : inputs).map { try InputFile(path: $0) }
            // opened first: a statistics path that cannot be written is found before the run, and
            // before -o and --errors are created or truncated
            statsFile = try stats.map { try OutputFile(path: $0) }
            eventsFile = try fences.events.map { try OutputFile(path: $0) }
            out = try output.map { try OutputFile(path: $0) } ?? .standardOutput()
            errorOutput = try errors.map { try OutputFile(path: $0) } ?? .standardError()
        } catch {
            StandardError.line("geo-enrich: \(error)")
            throw ExitCode(1)
        }

        StopSignals.install()
        let showProgress = !quiet && !noProgress && isatty(STDERR_FILENO) == 1
        let progress: (@Sendable (EnrichPipeline.Progress) -> Void)? = showProgress ? { @Sendable p in ProgressLine.show(p) } : nil
        let statistics: EnrichStatistics
        // start-up: the data and any fences loaded, the files opened; then the lines
        let streamStarted = DispatchTime.now().uptimeNanoseconds
        var streamEnded = streamStarted
        do throws(StreamError) {
            defer { streamEnded = DispatchTime.now().uptimeNanoseconds }
            statistics = try pipeline.run(inputs: files, output: out, errors: errorOutput, geofenceEvents: eventsFile,
                                          stop: StopSignals.flag, progress: progress)
        } catch {
            if showProgress { ProgressLine.clear() }
            StandardError.line("geo-enrich: \(error)")
            throw ExitCode(1)
        }
        if showProgress { ProgressLine.clear() }
        // the engine's memory is the process's exit's to give back: freeing it object by object
        // (the fences' shapes, the lists, the sessions) took about 10 ms of one thread after the
        // last line with 20,000 fences (35 M instructions, callgrind), time the run is measured by
        // (its output is all written and flushed by now; nothing in a deinit writes)
        _ = Unmanaged.passRetained(pipeline)
        for file in files {
            if let cut = file.truncation {
                StandardError.line("geo-enrich: \(file.name) shrank to \(cut.size) bytes while it was read (it had "
                    + "\(cut.sizeWhenOpened) when opened; read up to byte \(cut.readUpTo)): it was truncated in place, "
                    + "as log rotation by copy-and-truncate does. "
                    + "The run stopped at its last whole line read; what was read is written and counted (bytes), "
                    + "no input after it was read")
            }
        }
        var pushStatistics: PushStatistics?
        var deadLetters = 0
        if let pusher { (pushStatistics, deadLetters) = try push.finish(pusher) }
        var webhookStatistics: TransitionScheduler.Statistics?
        var undeliveredTransitions = 0
        if let webhook { (webhookStatistics, undeliveredTransitions) = try fences.finish(webhook, timeout: push.pushDrainTimeout) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9

        if let statsFile {
            let json = statistics.json(elapsedSeconds: elapsed,
                                       extra: [("push_enabled", pusher == nil ? "false" : "true")]
                                           + PushOptions.statisticsKeys(pushStatistics)
                                           + GeofenceOptions.statisticsKeys(webhookStatistics))
            do {
                try statsFile.appendLine(json)
                try statsFile.flush()
            } catch {
                StandardError.line("geo-enrich: \(error)")
                throw ExitCode(1)
            }
        }
        if !quiet {
            var line = Summary.line(statistics, elapsedSeconds: elapsed,
                                    startupSeconds: Double(streamStarted - started) / 1e9,
                                    linesSeconds: Double(streamEnded - streamStarted) / 1e9)
            if let p = pushStatistics {
                line += "; push: \(Summary.grouped(p.pushed)) pushed, \(Summary.grouped(p.coalesced)) coalesced, "
                    + "\(Summary.grouped(p.retries)) retries, \(p.failed) failed"
                    + (deadLetters > 0 ? " (in \(push.pushDeadLetter))" : "")
            }
            if let w = webhookStatistics {
                line += "; geofence webhook: \(Summary.grouped(w.delivered)) delivered, \(Summary.grouped(w.retries)) retries, "
                    + "\(w.failed) failed" + (undeliveredTransitions > 0 ? " (in \(fences.deadLetter))" : "")
            }
            StandardError.line(line)
        }
        precondition(statistics.reconciles, "the statistics do not reconcile: \(statistics)")

        switch StopSignals.flag.cause {
        case SIGINT: throw ExitCode(130)
        case SIGTERM: throw ExitCode(143)
        default: break
        }
        if statistics.stoppedEarly { throw ExitCode(1) }  // --max-errors, or an input truncated under the run
        // the enrichment is complete; some pushes or transitions are not delivered
        if deadLetters > 0 || undeliveredTransitions > 0 { throw ExitCode(3) }
    }
}

extension RecordFormat: ExpressibleByArgument {}

/// SIGINT and SIGTERM: the first raises a flag the pipeline watches (stop reading, finish what
/// was read, write, exit 130 or 143). While the push drains at the end, a signal ends the wait
/// (what is left becomes dead letters, and the statistics say `push_drain_interrupted`).
/// A second signal before that ends the process at once: an output that blocks (a pipe nobody
/// reads) would otherwise hold it forever, since finishing needs that output.
enum StopSignals {
    static let flag = StopFlag()
    static let draining = Atomic<Bool>(false)
    private static let drainCut = Atomic<Bool>(false)

    /// Whether a signal ended the push's final wait.
    static var drainInterrupted: Bool { drainCut.load(ordering: .relaxed) }

    static func install() {
        // touched here, not first in the handler: a global's lazy initialisation is not
        // async-signal-safe; loads and stores of lock-free atomics are
        _ = flag.isRequested
        _ = draining.load(ordering: .relaxed)
        _ = drainCut.load(ordering: .relaxed)
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { received in
                if StopSignals.draining.load(ordering: .relaxed) {
                    StopSignals.drainCut.store(true, ordering: .relaxed)
                } else if StopSignals.flag.isRequested {
                    let message: StaticString = "geo-enrich: a second signal: stopped at once, without finishing; lines not yet written are lost and no statistics are written\n"
                    _ = Glibc.write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
                    _exit(128 + received)
                } else {
                    StopSignals.flag.request(received)
                }
            }
        }
    }
}

/// The live progress line on a terminal's standard error.
enum ProgressLine {
    static func show(_ p: EnrichPipeline.Progress) {
        let rate = p.elapsedSeconds > 0 ? Double(p.lines) / p.elapsedSeconds : 0
        var text = "\r\u{1B}[Kgeo-enrich: \(Summary.grouped(p.lines)) lines, \(Summary.grouped(Int(rate))) lines/s, "
            + Summary.megabytes(p.bytes)
        // (the total is of the files as stored: for a gzip input the text read outgrows it)
        if let total = p.totalBytes, total > 0, p.bytes <= total {
            text += " (\(Summary.fixed(100 * Double(p.bytes) / Double(total), decimals: 1)) %)"
        }
        StandardError.write(text)
    }

    static func clear() {
        StandardError.write("\r\u{1B}[K")
    }
}

/// The one-line human summary at the end of a run.
enum Summary {
    /// - Parameters:
    ///   - elapsedSeconds: the whole run's time.
    ///   - startupSeconds: of it, the time before the first line was read (the data and any
    ///     fences loaded): what a longer stream does not pay again.
    ///   - linesSeconds: of it, the time from the first line read to the last written.
    static func line(_ s: EnrichStatistics, elapsedSeconds: Double, startupSeconds: Double, linesSeconds: Double) -> String {
        let r = s.fixesRejected
        let rate = elapsedSeconds > 0 ? Int(Double(s.lines) / elapsedSeconds) : 0
        return "geo-enrich: \(grouped(s.lines)) lines in \(fixed(elapsedSeconds, decimals: 2)) s "
            + "(\(grouped(rate)) lines/s; start-up \(fixed(startupSeconds, decimals: 3)) s, "
            + "the lines \(fixed(linesSeconds, decimals: 3)) s): \(grouped(s.events)) events (\(grouped(s.eventsEnriched)) enriched), "
            + "\(grouped(s.fixes)) fixes (\(grouped(s.fixesAccepted)) accepted; rejected: \(r.distance) distance, "
            + "\(r.stale) stale, \(r.accuracy) accuracy, \(r.consent) consent), \(grouped(s.errors)) errors"
            + (s.stoppedEarly ? "; stopped early" : "")
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }

    static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, decimals: 1) + " MB" }

    /// `x` with `decimals` digits after the point, as C's `%.Nf` writes it (rounded to nearest,
    /// the C locale's point): the text `String(format:)` gave, which is full Foundation's and
    /// would link its 34 MB of ICU data into the binary. printf is what that formatting ended in
    /// for `%f`, so the summary and progress lines are unchanged.
    static func fixed(_ x: Double, decimals: Int) -> String {
        // the longest `%f` of a Double is 309 digits before the point
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 320 + decimals) { buffer in
            let base = buffer.baseAddress!
            _ = withVaList([Int32(decimals), x]) { vsnprintf(base, buffer.count, "%.*f", $0) }
            return String(cString: base)
        }
    }
}
