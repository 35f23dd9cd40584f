import Foundation
import GeoEnrich
import HTTPTypes
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// The service: the MobileTracker seed's backend endpoints with geo-enrich inside.
///
/// - `POST /v2/tracking-session` → `{"data":{"id":"<new session id>"}}`
/// - `POST /v2/tracking-session-data` (a track event) → `{"geo":{…}}` (`{}` without a location)
/// - `PUT /v2/tracking-session/{sessionId}/location` → `{"accepted":true,"geo":{…}}` or
///   `{"accepted":false,"reason":"distance|stale|accuracy|consent"}`
/// - `POST /eqworks/batch` (an EQWorks payload) → the payload enriched
/// - `GET /metrics` (Prometheus text) and `GET /health`, without a key
///
/// Each of the seed's endpoints wants `X-API-Key` (401 otherwise); a body the engine cannot read
/// is a 400 with the bad-line code as `reason`. Every accepted record goes to the output file as
/// `geo-enrich enrich` writes it.
public enum IngestApplication {
    /// The application, ready to run (`try await app.runService()`).
    ///
    /// - Parameters:
    ///   - configuration: what to listen on, the key, the data, the output.
    ///   - logger: the service's logger (requests are not logged above `debug`; the key never).
    ///   - registry: where the metrics go; `GET /metrics` writes it.
    ///   - onServerRunning: called with the bound port once the server listens.
    public static func make(_ configuration: IngestConfiguration, logger: Logger,
                            registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                            onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let metrics = PrometheusMetricsFactory(registry: registry)
        let lookup = try LocationLookup(dataDirectory: configuration.dataDirectory,
                                        postalMaxDistance: configuration.engine.postalMaxDistance,
                                        postalCountries: configuration.postalCountries,
                                        timeZones: configuration.timeZones)
        let records = try GeoEnricher(lookup: lookup, configuration: configuration.engine, format: .mobiletracker,
                                      emitRejected: configuration.emitRejected, logger: logger, metrics: metrics)
        let batches = try GeoEnricher(lookup: lookup, configuration: configuration.engine, format: .eqworks,
                                      emitRejected: configuration.emitRejected, logger: logger, metrics: metrics)
        let output = try NDJSONOutput(path: configuration.outputPath, interval: configuration.flushInterval, logger: logger)
        let routes = IngestRoutes(records: records, batches: batches, output: output, pusher: configuration.pusher,
                                  registry: registry, maxBodyBytes: configuration.maxBodyBytes)

        let router = Router()
        router.get("/health") { _, _ in routes.health() }
        router.get("/metrics") { _, _ in routes.metrics() }
        let api = router.group().add(middleware: APIKeyMiddleware(key: configuration.apiKey))
        api.post("/v2/tracking-session") { request, _ in try await routes.createSession(request) }
        api.post("/v2/tracking-session-data") { request, _ in try await routes.track(request) }
        api.put("/v2/tracking-session/:sessionId/location") { request, context in
            try await routes.location(request, session: context.parameters.require("sessionId"))
        }
        api.post("/eqworks/batch") { request, _ in try await routes.eqworksBatch(request) }

        var services: [any Service] = [output]
        if let pusher = configuration.pusher { services.append(pusher) }
        // the group stops services in reverse order: the server first (it finishes the requests
        // under way), then the push drains, then the output writes its last lines
        return Application(router: router,
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                                serverName: "IngestService"),
                           services: services,
                           onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
                           logger: logger)
    }
}

/// Refuses a request without the right `X-API-Key` (401), comparing in constant time; the key
/// is never logged or echoed.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let key: [UInt8]

    init(key: String) { self.key = Array(key.utf8) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers[HTTPField.Name("X-API-Key")!], Self.equal(Array(given.utf8), key) else {
            return IngestRoutes.json(.unauthorized, #"{"reason":"unauthorized"}"#)
        }
        return try await next(request, context)
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
