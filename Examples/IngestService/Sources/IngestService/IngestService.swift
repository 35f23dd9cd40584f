import ArgumentParser
import Foundation
import GeoEnrich
import GeoEnrichOptions
import Hummingbird
import IngestServiceCore
import Logging

/// `IngestService --host H --port P --api-key-file F --data DIR --output FILE [engine and push
/// options of geo-enrich enrich]`: the MobileTracker seed's backend with geo-enrich inside.
@main
struct IngestService: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The MobileTracker backend endpoints, each record enriched by geo-enrich.",
        discussion: """
            Every accepted record goes to --output as `geo-enrich enrich --format mobiletracker` \
            writes it (EQWorks batches as `--format eqworks`), flushed at least once a second and \
            on shutdown. SIGTERM or SIGINT stops it gracefully: the requests under way are \
            answered, the push drains, the output is flushed. Clients send the key of \
            --api-key-file as X-API-Key; with --push-url, accepted locations are pushed on with \
            the same key (or $GEO_ENRICH_API_KEY when set).
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed when listening).")
    var port = 8080

    @Option(help: "The folder of geo-enrich's data files.")
    var data: String

    @Option(help: "Where every accepted record goes, enriched (NDJSON, appended).")
    var output: String

    @Flag(name: .customLong("emit-rejected"), help: "Also write rejected fixes, with \"rejected\":\"<reason>\".")
    var emitRejected = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @OptionGroup(title: "The engine") var engine: EngineOptions

    // its --api-key-file is the service's key: the one clients must send as X-API-Key, and the
    // one the push sends on (unless GEO_ENRICH_API_KEY is set)
    @OptionGroup(title: "Push, and the service's key") var push: PushOptions

    func validate() throws {
        guard push.apiKeyFile != nil else {
            throw ValidationError("--api-key-file is required: the key clients must send as X-API-Key")
        }
    }

    func run() async throws {
        let apiKeyFile = push.apiKeyFile!
        var logger = Logger(label: "IngestService")
        logger.logLevel = logLevel
        guard let keyText = try? String(contentsOfFile: apiKeyFile, encoding: .utf8) else {
            throw ValidationError("cannot read the API key file \(apiKeyFile)")
        }
        let key = keyText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard APIKey(key) != nil else { throw ValidationError("the API key in \(apiKeyFile) cannot be used in a header") }
        var configuration = IngestConfiguration(apiKey: key, dataDirectory: data, outputPath: output)
        configuration.host = host
        configuration.port = port
        configuration.engine = engine.configuration
        configuration.postalCountries = engine.postalCountries.systems
        configuration.timeZones = engine.timeZone
        configuration.emitRejected = emitRejected
        if push.pushURL != nil {
            var push = self.push
            // the push sends the clients' key unless GEO_ENRICH_API_KEY says otherwise
            if push.apiKeyFile == nil && ProcessInfo.processInfo.environment["GEO_ENRICH_API_KEY"] == nil {
                push.apiKeyFile = apiKeyFile
            }
            configuration.pusher = try push.makePusher(logger: logger)
        }
        let host = configuration.host
        let app = try IngestApplication.make(configuration, logger: logger) { port in
            // one line on standard output, for whoever started us with --port 0 (written at once:
            // a pipe would buffer print's line)
            let line = Array("IngestService listening on \(host):\(port)\n".utf8)
            _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        if let pusher = configuration.pusher, !pusher.deadLetters.isEmpty {
            let file = push.pushDeadLetter
            let lines = pusher.deadLetters.flatMap { DeadLetterFile.line($0) }
            FileManager.default.createFile(atPath: file, contents: Data(lines))
            logger.warning("undelivered pushes written", metadata: ["file": "\(file)", "count": "\(pusher.deadLetters.count)"])
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
