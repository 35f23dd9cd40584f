import Foundation
import GeoEnrich
import Hummingbird
import Prometheus

/// What each endpoint does; the routing and the key are ``IngestApplication``'s.
struct IngestRoutes: Sendable {
    let records: GeoEnricher
    let batches: GeoEnricher
    let output: NDJSONOutput
    let pusher: LocationPusher?
    let registry: PrometheusCollectorRegistry
    let maxBodyBytes: Int

    // MARK: The seed's endpoints

    /// `POST /v2/tracking-session`: a new session id for a JSON object body (the seed's
    /// `device_id`, `os_name`, `device_type`, `brand_id`; none is required).
    func createSession(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
        guard RecordShaping.members(body) != nil else {
            return Self.json(.badRequest, #"{"reason":"not_an_object"}"#)
        }
        let id = UUID().uuidString.lowercased()
        var out = Array(#"{"data":{"id":"#.utf8)
        appendJSONString(id, to: &out)
        out += "}}".utf8
        return Self.json(.ok, out)
    }

    /// `POST /v2/tracking-session-data`: a track event, answered with its `geo` (`{}` when its
    /// session has no live location).
    func track(_ request: Request) async throws -> Response {
        let enriched: EnrichedLine
        switch try await enrichRecord(request, session: nil) {
        case .failure(let refusal): return refusal.response
        case .success(let line): enriched = line
        }
        var out = Array(#"{"geo":"#.utf8)
        out += enriched.decisions.first?.geoJSON ?? Array("{}".utf8)
        out.append(UInt8(ascii: "}"))
        return Self.json(.ok, out)
    }

    /// `PUT /v2/tracking-session/{sessionId}/location`: a fix of the session, accepted (with its
    /// `geo`, and pushed on when a push is set) or rejected with the reason.
    func location(_ request: Request, session: String) async throws -> Response {
        let enriched: EnrichedLine
        switch try await enrichRecord(request, session: session) {
        case .failure(let refusal): return refusal.response
        case .success(let line): enriched = line
        }
        switch enriched.decisions.first {
        case .accepted(let enrichment):
            if let pusher, let id = SessionID(session) {
                pusher.submit(session: id, body: PushBody.json(latitude: enrichment.latitude,
                                                              longitude: enrichment.longitude,
                                                              accuracy: enrichment.accuracy))
            }
            var out = Array(#"{"accepted":true,"geo":"#.utf8)
            out += enriched.decisions[0].geoJSON ?? []
            out.append(UInt8(ascii: "}"))
            return Self.json(.ok, out)
        case .rejected(let reason):
            return Self.json(.ok, #"{"accepted":false,"reason":"\#(reason.rawValue)"}"#)
        case .attached, .unattached, nil:
            return Self.bad("missing_location")
        }
    }

    /// `POST /eqworks/batch`: an EQWorks payload (`logEvent`, `logUser` or a `batch`), answered
    /// with the payload enriched as `enrich --format eqworks` writes it.
    func eqworksBatch(_ request: Request) async throws -> Response {
        let body = try await self.body(of: request)
        let line = body.map { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0 }
        let enriched = batches.enrich(line: line)
        if let reason = enriched.badReason { return Self.bad(reason.rawValue) }
        guard try keep(enriched) else { return Self.unavailable() }
        return Self.json(.ok, enriched.output ?? line)
    }

    /// Why a record was not taken: the answer to give.
    struct Refusal: Error {
        let response: Response
    }

    /// A request's record, shaped into a line and enriched, its output line kept; or the answer
    /// that refuses it (400 with the reason, 503 once the output has failed).
    private func enrichRecord(_ request: Request, session: String?) async throws -> Result<EnrichedLine, Refusal> {
        let body = try await self.body(of: request)
        switch RecordShaping.shape(body, session: session, receivedAt: Self.now(), requireLocation: session != nil) {
        case .refused(let reason):
            return .failure(Refusal(response: Self.bad(reason)))
        case .line(let line):
            let enriched = records.enrich(line: line)
            if let reason = enriched.badReason { return .failure(Refusal(response: Self.bad(reason.rawValue))) }
            guard try keep(enriched) else { return .failure(Refusal(response: Self.unavailable())) }
            return .success(enriched)
        }
    }

    // MARK: Operations

    func health() -> Response {
        if let failed = output.failed {
            var out = Array(#"{"status":"failing","reason":"#.utf8)
            appendJSONString(failed, to: &out)
            out.append(UInt8(ascii: "}"))
            return Self.json(.serviceUnavailable, out)
        }
        return Self.json(.ok, #"{"status":"ok"}"#)
    }

    func metrics() -> Response {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }

    // MARK: Helpers

    /// Appends the record's output line to the output file; `false` when the output has failed
    /// (the record is refused with a 503 rather than accepted and lost).
    private func keep(_ enriched: EnrichedLine) throws -> Bool {
        guard output.failed == nil else { return false }
        if let line = enriched.output { output.append(line) }
        return true
    }

    private func body(of request: Request) async throws -> [UInt8] {
        var request = request
        let buffer = try await request.collectBody(upTo: maxBodyBytes)
        return Array(buffer.readableBytesView)
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    static func bad(_ reason: String) -> Response {
        var out = Array(#"{"reason":"#.utf8)
        appendJSONString(reason, to: &out)
        out.append(UInt8(ascii: "}"))
        return json(.badRequest, out)
    }

    static func unavailable() -> Response { json(.serviceUnavailable, #"{"reason":"output_failed"}"#) }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response { json(status, Array(text.utf8)) }

    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
