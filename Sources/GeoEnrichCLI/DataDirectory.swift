import Foundation

/// Where the bundled data files are: `--data`, else `$GEO_ENRICH_DATA`, else the repository's
/// `data/` next to a SwiftPM build (`.build/<config>/geo-enrich` → `../../data`), else
/// `<prefix>/share/geo-enrich` of an installed binary, else `./data`.
enum DataDirectory {
    static func resolve(_ option: String?) -> String {
        if let option { return option }
        if let env = ProcessInfo.processInfo.environment["GEO_ENRICH_DATA"], !env.isEmpty { return env }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            exe.appendingPathComponent("../../data"),
            exe.appendingPathComponent("../../../data"),
            exe.appendingPathComponent("../share/geo-enrich"),
            URL(fileURLWithPath: "data"),
        ]
        for c in candidates where FileManager.default.fileExists(atPath: c.appendingPathComponent("postal_ca.bin").path) {
            return c.standardizedFileURL.path
        }
        return "data"
    }
}
