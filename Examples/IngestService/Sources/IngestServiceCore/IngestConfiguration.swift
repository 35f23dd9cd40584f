import GeoEnrich

/// What the service needs to start: where it listens, the key its clients send, the data, the
/// output file, and the engine's and the push's settings (the options of `geo-enrich enrich`).
public struct IngestConfiguration: Sendable {
    /// The address to listen on (a loopback address by default).
    public var host = "127.0.0.1"
    /// The port; 0 takes a free one (the tests do, and read it from `onServerRunning`).
    public var port = 8080
    /// The `X-API-Key` every client must send; never logged.
    public var apiKey: String
    /// The folder of geo-enrich's data files.
    public var dataDirectory: String
    /// Where every accepted record goes, enriched, as NDJSON.
    public var outputPath: String
    /// The engine's rules.
    public var engine = EngineConfiguration()
    /// The countries whose points get a postal code (`--postal-countries`; Canada by default).
    public var postalCountries: Set<PostalCode.System> = [.canada]
    /// Whether `geo` gets the fix's time zone and its UTC offset (`--timezone`).
    public var timeZones = false
    /// Write rejected fixes to the output too (with `"rejected":"<reason>"`), as `--emit-rejected`.
    public var emitRejected = false
    /// Pushes each accepted location on, when set (`--push-url`).
    public var pusher: LocationPusher?
    /// How often the output is flushed (at least once a second, and on shutdown).
    public var flushInterval: Duration = .milliseconds(200)
    /// The largest request body read, in bytes.
    public var maxBodyBytes = 1 << 20

    public init(apiKey: String, dataDirectory: String, outputPath: String) {
        self.apiKey = apiKey
        self.dataDirectory = dataDirectory
        self.outputPath = outputPath
    }
}
