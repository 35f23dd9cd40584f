import EnrichStream
import Foundation
import GeoLookup

/// Runs the pipeline over bytes held in memory, through real files in a scratch folder, and
/// returns what it wrote.
struct StreamRun {
    var output: [UInt8]
    var errors: [UInt8]
    var statistics: EnrichStatistics

    var outputLines: [[UInt8]] { Self.lines(output) }
    var errorLines: [[UInt8]] { Self.lines(errors) }

    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The bundled data, opened once for all tests.
    static let lookup: LocationLookup = {
        do { return try LocationLookup(dataDirectory: repositoryRoot.appendingPathComponent("data").path) }
        catch { fatalError("the bundled data: \(error)") }
    }()

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/EnrichStreamTests/Fixtures/\(name)")))
    }

    /// The bundled data with US ZIP codes too (`--postal-countries CA,US`).
    static let lookupWithZipCodes: LocationLookup = {
        do {
            return try LocationLookup(dataDirectory: repositoryRoot.appendingPathComponent("data").path,
                                      postalCountries: [.canada, .unitedStates])
        } catch { fatalError("\(error)") }
    }()

    /// The bundled data with US ZIP codes and time zones (`--postal-countries CA,US --timezone`).
    static let lookupWithTimeZones: LocationLookup = {
        do {
            return try LocationLookup(dataDirectory: repositoryRoot.appendingPathComponent("data").path,
                                      postalCountries: [.canada, .unitedStates], timeZones: true)
        } catch { fatalError("\(error)") }
    }()

    /// Runs `inputs` (each one file) with `options`.
    static func run(_ inputs: [[UInt8]], options: EnrichOptions = EnrichOptions(),
                    stop: StopFlag = StopFlag(), lookup: LocationLookup = StreamRun.lookup) throws -> StreamRun {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geo-enrich-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [InputFile] = []
        for (i, bytes) in inputs.enumerated() {
            let url = dir.appendingPathComponent("in\(i).ndjson")
            try Data(bytes).write(to: url)
            files.append(try InputFile(path: url.path))
        }
        let outURL = dir.appendingPathComponent("out.ndjson")
        let errURL = dir.appendingPathComponent("err.ndjson")
        let statistics: EnrichStatistics
        do {
            let out = try OutputFile(path: outURL.path)
            let err = try OutputFile(path: errURL.path)
            let pipeline = try EnrichPipeline(options: options, lookup: lookup)
            statistics = try pipeline.run(inputs: files, output: out, errors: err, stop: stop)
        }
        return StreamRun(output: Array(try Data(contentsOf: outURL)), errors: Array(try Data(contentsOf: errURL)),
                         statistics: statistics)
    }

    static func run(_ input: String, options: EnrichOptions = EnrichOptions()) throws -> StreamRun {
        try run([Array(input.utf8)], options: options)
    }
}
