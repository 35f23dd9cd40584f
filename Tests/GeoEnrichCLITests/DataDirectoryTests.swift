@testable import GeoEnrichCLI
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data search: its order, the folders derived from the executable's real path, and the
/// failure that lists every folder looked in.
@Suite struct DataDirectoryTests {
    static func paths(_ option: String?, _ environment: String?, _ executable: String?) -> [String] {
        DataDirectory.candidates(option: option, environment: environment, executable: executable).map(\.path)
    }

    @Test func explicitFolderIsTheOnlyCandidate() {
        #expect(Self.paths("/my/data", "/env/data", "/opt/ge/bin/geo-enrich") == ["/my/data"])
        #expect(Self.paths(nil, "/env/data", "/opt/ge/bin/geo-enrich") == ["/env/data"])
    }

    @Test func emptyEnvironmentValueIsIgnored() {
        #expect(Self.paths(nil, "", "/opt/ge/bin/geo-enrich")
                == ["/opt/ge/bin/data", "/opt/ge/share/geo-enrich", "/usr/share/geo-enrich"])
    }

    @Test func swiftPMBuildFindsTheRepositoryData() {
        let list = DataDirectory.candidates(option: nil, environment: nil,
                                            executable: "/src/geo-enrich/.build/x86_64-unknown-linux-gnu/release/geo-enrich")
        #expect(list.map(\.path) == ["/src/geo-enrich/.build/x86_64-unknown-linux-gnu/release/data",
                                     "/src/geo-enrich/data",
                                     "/src/geo-enrich/.build/x86_64-unknown-linux-gnu/share/geo-enrich",
                                     "/usr/share/geo-enrich"])
        #expect(list[1].origin == "the repository of this SwiftPM build")
        // another build folder name (.build-tsan) counts too
        #expect(Self.paths(nil, nil, "/r/.build-tsan/debug/geo-enrich").contains("/r/data"))
    }

    @Test func systemInstallIsListedOnce() {
        let list = DataDirectory.candidates(option: nil, environment: nil, executable: "/usr/bin/geo-enrich")
        #expect(list.map(\.path) == ["/usr/bin/data", "/usr/share/geo-enrich"])
        #expect(list[1].origin == "the installation prefix of the executable")
    }

    @Test func unknownExecutableLeavesTheSystemFolder() {
        #expect(Self.paths(nil, nil, nil) == ["/usr/share/geo-enrich"])
    }

    @Test(arguments: [
        ("/a/b/../c", "/a/c"), ("/a/./b//c/", "/a/b/c"), ("/../x", "/x"), ("/", "/"),
        ("a/../../b", "../b"), ("./", "."),
    ])
    func normalize(_ input: String, _ expected: String) {
        #expect(DataDirectory.normalize(input) == expected)
    }

    @Test func parent() {
        #expect(DataDirectory.parent("/usr/bin/geo-enrich") == "/usr/bin")
        #expect(DataDirectory.parent("/geo-enrich") == "/")
        #expect(DataDirectory.parent("geo-enrich") == ".")
    }

    /// A scratch prefix: <tmp>/bin/geo-enrich (not created) and <tmp>/share/geo-enrich.
    static func scratch() -> String {
        var template = Array("/tmp/geo-enrich-datadir.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        let root = String(cString: template)
        for d in ["bin", "share", "share/geo-enrich"] { mkdir(root + "/" + d, 0o755) }
        return root
    }

    static func touch(_ path: String) {
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        close(fd)
    }

    @Test func findsThePrefixShareFolderOnlyWhenBothFilesAreThere() throws {
        let root = Self.scratch()
        let exe = root + "/bin/geo-enrich"
        Self.touch(root + "/share/geo-enrich/countries.bin")
        // one file of two: not a data folder
        #expect(throws: DataDirectory.NotFound.self) {
            try DataDirectory.find(nil, environment: nil, executable: exe)
        }
        Self.touch(root + "/share/geo-enrich/postal_ca.bin")
        let found = try DataDirectory.find(nil, environment: nil, executable: exe)
        #expect(found.path == root + "/share/geo-enrich")
        #expect(found.origin == "the installation prefix of the executable")
        // beside the executable comes first
        mkdir(root + "/bin/data", 0o755)
        Self.touch(root + "/bin/data/countries.bin")
        Self.touch(root + "/bin/data/postal_ca.bin")
        #expect(try DataDirectory.find(nil, environment: nil, executable: exe).path == root + "/bin/data")
        // and an explicit folder without the files is an error, even though others hold them
        #expect(throws: DataDirectory.NotFound.self) {
            try DataDirectory.find(root + "/share", environment: nil, executable: exe)
        }
    }

    @Test func failureListsEveryFolderAndWhatItLacks() throws {
        let root = Self.scratch()
        Self.touch(root + "/share/geo-enrich/postal_ca.bin")
        do {
            _ = try DataDirectory.find(nil, environment: nil, executable: root + "/bin/geo-enrich")
            Issue.record("found data in an empty prefix")
        } catch {
            let text = error.description
            #expect(!error.explicit)
            #expect(text.contains("\(root)/bin/data  (beside the executable; no such folder)"))
            #expect(text.contains("\(root)/share/geo-enrich  (the installation prefix of the executable; missing or unreadable: countries.bin)"))
            #expect(text.contains("/usr/share/geo-enrich  (system-wide"))
            #expect(text.contains("pass --data DIR or set GEO_ENRICH_DATA"))
        }
        do {
            _ = try DataDirectory.find(nil, environment: root + "/nowhere", executable: root + "/bin/geo-enrich")
            Issue.record("found data in a folder that does not exist")
        } catch {
            #expect(error.explicit)
            #expect(error.searched.map(\.path) == [root + "/nowhere"])
            #expect(error.description.contains("$GEO_ENRICH_DATA; no such folder"))
            #expect(error.description.contains("is the only place searched"))
            #expect(error.description.contains("unset GEO_ENRICH_DATA"))
        }
    }
}
