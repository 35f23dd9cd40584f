import Foundation
import Testing
@testable import GeoLookup

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

    /// Makes a data file's payload checksum right again after `data` was damaged (a damaged file
    /// as a buggy builder would write it, which only the structure checks can refuse).
    static func rechecksum(_ data: inout Data) {
        let checksum = data[128...].withUnsafeBytes { DataFile.checksum($0) }
        withUnsafeBytes(of: checksum.littleEndian) { data.replaceSubrange(24..<32, with: $0) }
    }

    /// Expects `open` to refuse the file at `path` as corrupt, saying `mentions` and naming it.
    static func expectCorrupt(_ path: String, mentions: String, sourceLocation: SourceLocation = #_sourceLocation,
                              _ open: () throws -> Void) throws {
        let error = #expect(throws: DataFileError.self, sourceLocation: sourceLocation) { try open() }
        let e = try #require(error, sourceLocation: sourceLocation)
        guard case .corrupt(let message) = e.reason else {
            Issue.record("expected .corrupt, got \(e)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains(mentions), "\(message)", sourceLocation: sourceLocation)
        #expect(e.description.contains(path), sourceLocation: sourceLocation)
    }
}
