import Foundation

/// Paths of the repository's data files, found from this source file's location.
enum TestData {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func data(_ name: String) -> String { repositoryRoot.appendingPathComponent("data").appendingPathComponent(name).path }

    static func fixture(_ name: String) throws -> [String] {
        let url = repositoryRoot.appendingPathComponent("Tests/GeoLookupTests/Fixtures").appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    /// A scratch copy of a data file, altered by `edit`, in a fresh temporary directory.
    static func alteredCopy(of name: String, _ edit: (inout Data) -> Void) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: data(name)))
        edit(&bytes)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geo-enrich-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }
}
