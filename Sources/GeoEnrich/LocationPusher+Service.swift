import LocationPush
import Logging
import ServiceLifecycle

// Here rather than in LocationPush: the `geo-enrich` command links LocationPush but not the
// lifecycle library, which only a service needs.
extension LocationPusher: Service {
    /// Runs until the service group shuts down gracefully (or the task is cancelled), then
    /// drains for `drainTimeout` seconds, keeps what was not delivered in `deadLetters`
    /// (each logged at `warning`), and shuts its own client down.
    public func run() async throws {
        try? await gracefulShutdown()
        let letters = await drain(timeout: drainTimeout)
        if !letters.isEmpty {
            logger.warning("push drained with dead letters", metadata: ["dead_letters": "\(letters.count)"])
        }
        try await shutdown()
    }
}
