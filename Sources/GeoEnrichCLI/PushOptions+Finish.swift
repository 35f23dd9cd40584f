import ArgumentParser
import Dispatch
import EnrichStream
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import GeoEnrichOptions
import LocationPush
import Synchronization

extension PushOptions {
    /// Drains `pusher`, writes the dead letters (if any), closes it.
    /// - Returns: the push figures and the number of dead letters written.
    func finish(_ pusher: LocationPusher) throws -> (PushStatistics, Int) {
        let timeout = pushDrainTimeout
        // a SIGINT or SIGTERM while draining ends the wait: the rest become dead letters
        StopSignals.draining.store(true, ordering: .relaxed)
        defer { StopSignals.draining.store(false, ordering: .relaxed) }
        let letters = blocking { await pusher.drain(timeout: timeout, interrupted: { StopSignals.drainInterrupted }) }
        blocking { try? await pusher.shutdown() }
        if !letters.isEmpty {
            do {
                let file = try OutputFile(path: pushDeadLetter)
                for letter in letters { try file.appendLine(String(decoding: DeadLetterFile.line(letter).dropLast(), as: UTF8.self)) }
                try file.flush()
            } catch {
                StandardError.line("geo-enrich: \(error)")
                throw ExitCode(1)
            }
        }
        return (pusher.statistics, letters.count)
    }

    /// The statistics' push keys.
    static func statisticsKeys(_ s: PushStatistics?) -> [(key: String, json: String)] {
        let keys = [("pushed", "\(s?.pushed ?? 0)"), ("push_retries", "\(s?.retries ?? 0)"),
                    ("coalesced", "\(s?.coalesced ?? 0)"), ("push_failed", "\(s?.failed ?? 0)")]
        // with a push only: whether a signal cut its final wait short (the rest are dead letters)
        guard s != nil else { return keys }
        return keys + [("push_drain_interrupted", StopSignals.drainInterrupted ? "true" : "false")]
    }
}

/// Feeds accepted fixes to the pusher (never waits for the network).
struct PusherSink: AcceptedFixSink {
    let pusher: LocationPusher
    func accepted(session: SessionID, body: [UInt8]) { pusher.submit(session: session, body: body) }
}

/// Runs async work from the synchronous command and waits for it.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// `geo-enrich push --replay FILE`: sends a dead-letter file's updates, or with
/// `--geofence-webhook` its geofence transitions, again.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send the updates of a dead-letter file again (`--replay FILE`).",
        discussion: """
            Reads the NDJSON lines that `enrich --push-url` wrote to its dead-letter file and sends \
            each update again, in file order, with the same policy. What is still undelivered is \
            written to --push-dead-letter (it may be the same file: it is read first). With \
            --geofence-webhook URL instead of --push-url, reads the geofence transitions that \
            `enrich --geofence-webhook` could not deliver (its --geofence-dead-letter file) and \
            posts them again, in order per session; what is still undelivered goes to \
            --geofence-dead-letter. Exit status 0 when everything was delivered, 3 when some \
            are in the dead-letter file again.
            """)

    @Option(help: "The dead-letter file to send again.")
    var replay: String

    @OptionGroup var push: PushOptions

    @Option(name: .customLong("geofence-webhook"), help: ArgumentHelp(
        "Post the file's geofence transitions to this URL (instead of --push-url).", valueName: "url"))
    var webhook: String?

    @Option(name: .customLong("geofence-dead-letter"), help: ArgumentHelp(
        "Where transitions still undelivered are written.", valueName: "file"))
    var geofenceDeadLetter: String = "geo-enrich-geofence-dead-letter.ndjson"

    func validate() throws {
        guard (push.pushURL != nil) != (webhook != nil) else {
            throw ValidationError("push --replay needs one of --push-url (location updates) or --geofence-webhook (geofence transitions)")
        }
    }

    func run() throws {
        guard let data = FileManager.default.contents(atPath: replay) else {
            StandardError.line("geo-enrich: cannot read \(replay)")
            throw ExitCode(1)
        }
        // every line read and checked before anything is sent: a file of the other kind is refused whole
        var letters: [ReplayedLetter] = []
        let transitions = webhook != nil
        for (n, line) in data.split(separator: 0x0A).enumerated() where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
            guard let letter = ReplayedLetter(line: line) else {
                StandardError.line("geo-enrich: \(replay):\(n + 1): not a dead-letter line (session_id and body needed)")
                throw ExitCode(1)
            }
            guard (letter.kind == DeadLetterFile.geofenceTransitionKind) == transitions else {
                StandardError.line("geo-enrich: \(replay):\(n + 1): " + (transitions
                    ? "a location update, not a geofence transition: replay it with --push-url"
                    : "a geofence transition, not a location update: replay it with --geofence-webhook"))
                throw ExitCode(1)
            }
            letters.append(letter)
        }
        if transitions {
            // (not through a GeofenceOptions made here: its options are parsed only by the parser)
            let sender = try GeofenceOptions.makeWebhook(url: webhook!, push: push, capacity: 10_000)
            // a plain thread may wait in submit (the queue's bound); this command is one
            for letter in letters { sender.submit(session: letter.session, body: Array(letter.body.utf8)) }
            let (stats, failed) = try GeofenceOptions.finish(sender, timeout: push.pushDrainTimeout, deadLetter: geofenceDeadLetter)
            StandardError.line("geo-enrich: replayed \(letters.count) geofence transitions: \(stats.delivered) delivered, "
                + "\(stats.retries) retries, \(stats.failed) failed" + (failed > 0 ? " (in \(geofenceDeadLetter))" : ""))
            if failed > 0 { throw ExitCode(3) }
            return
        }
        guard let pusher = try push.makePusher() else { return }
        for letter in letters { pusher.submit(session: letter.session, body: Array(letter.body.utf8)) }
        let (stats, failed) = try push.finish(pusher)
        StandardError.line("geo-enrich: replayed \(letters.count) updates: \(stats.pushed) pushed, \(stats.coalesced) coalesced, "
            + "\(stats.retries) retries, \(stats.failed) failed" + (failed > 0 ? " (in \(push.pushDeadLetter))" : ""))
        if failed > 0 { throw ExitCode(3) }
    }
}
