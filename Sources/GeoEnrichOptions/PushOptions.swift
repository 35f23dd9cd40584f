import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif
import LocationPush
import Logging

/// The push options of `geo-enrich enrich` and `push`, shared with a service built on the
/// library (Examples/IngestService) so that the same names mean the same things.
public struct PushOptions: ParsableArguments {
    @Option(name: .customLong("push-url"), help: "Push each accepted fix to PUT <url>/v2/tracking-session/{session}/location (http or https). The API key comes from $GEO_ENRICH_API_KEY or --api-key-file, never from an argument.")
    public var pushURL: String?

    @Option(name: .customLong("api-key-file"), help: "A file holding the push API key (else $GEO_ENRICH_API_KEY).")
    public var apiKeyFile: String?

    @Option(name: .customLong("push-drain-timeout"), parsing: .unconditional, help: "Seconds to wait at the end for the pushes still under way.")
    public var pushDrainTimeout: Double = 30

    @Option(name: .customLong("push-dead-letter"), help: "Where undelivered updates are written (NDJSON), if any.")
    public var pushDeadLetter: String = "geo-enrich-dead-letter.ndjson"

    @Option(name: .customLong("push-max-in-flight"), parsing: .unconditional, help: "Requests in flight at most.")
    public var pushMaxInFlight: Int = 64

    @Option(name: .customLong("push-retry-time"), parsing: .unconditional, help: "Seconds an update may be retried before it goes to the dead-letter file.")
    public var pushRetryTime: Double = 300

    @Option(name: .customLong("push-timeout"), parsing: .unconditional, help: "Seconds a request may take.")
    public var pushTimeout: Double = 10

    public init() {}

    public func validate() throws {
        guard pushDrainTimeout.isFinite, pushDrainTimeout >= 0 else { throw ValidationError("--push-drain-timeout must be a non-negative number of seconds") }
        guard (1...4096).contains(pushMaxInFlight) else { throw ValidationError("--push-max-in-flight must be 1 to 4096") }
        guard pushRetryTime.isFinite, pushRetryTime >= 0 else { throw ValidationError("--push-retry-time must be a non-negative number of seconds") }
        guard pushTimeout.isFinite, pushTimeout > 0 else { throw ValidationError("--push-timeout must be a positive number of seconds") }
    }

    /// The pusher, or `nil` without `--push-url`.
    /// - Parameters:
    ///   - logger: the pusher's logger (quiet by default).
    /// - Throws: `ValidationError` (exit 64) for a bad URL or a missing key; the key itself is
    ///   never part of a message.
    public func makePusher(logger: Logger = LocationPusher.quietLogger) throws -> LocationPusher? {
        guard let pushURL else { return nil }
        let key = try apiKey(for: "--push-url")
        let endpoint: PushEndpoint
        do { endpoint = try PushEndpoint(baseURL: pushURL, apiKey: key) } catch { throw ValidationError("\(error)") }
        return LocationPusher(endpoint: endpoint, policy: policy, drainTimeout: pushDrainTimeout, logger: logger)
    }

    /// The bounds and backoff the options give (the geofence webhook retries as the push does).
    public var policy: PushPolicy {
        var policy = PushPolicy()
        policy.maxInFlight = pushMaxInFlight
        policy.maxRetryTime = pushRetryTime
        policy.requestTimeout = pushTimeout
        return policy
    }

    /// The API key, from `--api-key-file` or `$GEO_ENRICH_API_KEY`.
    /// - Parameter option: the option that needs it, for the message when there is none.
    /// - Throws: `ValidationError` (exit 64) when there is none or it cannot be used; the key
    ///   itself is never part of a message.
    public func apiKey(for option: String) throws -> APIKey {
        let keyText: String
        if let apiKeyFile {
            guard let text = try? String(contentsOfFile: apiKeyFile, encoding: .utf8) else {
                throw ValidationError("cannot read the API key file \(apiKeyFile)")
            }
            keyText = text
        } else if let env = ProcessInfo.processInfo.environment["GEO_ENRICH_API_KEY"] {
            keyText = env
        } else {
            throw ValidationError("\(option) needs an API key: set GEO_ENRICH_API_KEY or give --api-key-file")
        }
        if let problem = APIKey.problem(keyText) {
            throw ValidationError("the API key (\(apiKeyFile.map { "from \($0)" } ?? "from GEO_ENRICH_API_KEY")) cannot be used: \(problem)")
        }
        guard let key = APIKey(keyText) else { throw ValidationError("the API key cannot be used") }
        return key
    }
}
