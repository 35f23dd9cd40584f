import ArgumentParser

/// The `geo-enrich` command: wiring only; the work is in the library modules.
@main
struct GeoEnrichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geo-enrich",
        abstract: "Location and geospatial enrichment for mobile-analytics event streams.",
        version: "0.2.0",
        subcommands: [EnrichCommand.self, PushCommand.self, H3Command.self, LookupCommand.self, AboutCommand.self])
}
