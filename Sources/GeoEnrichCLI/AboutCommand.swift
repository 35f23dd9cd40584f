import ArgumentParser
import GeoBridge
import GeoLookup

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `geo-enrich about`: what this binary is made of, for bug reports and licence questions.
/// (`geo-enrich --version` prints the version alone.)
struct AboutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "about",
        abstract: "The version, commit, library versions, data files found, and licences.",
        discussion: """
            Prints the build's version and git commit, the H3 release the H3 tools are bit-exact \
            with, the geodesic's reference, the GEOS version loaded at run time, the data folder found (and how) \
            with each file's format version, size, checksum and source, and a summary of the \
            licences (full texts: LICENSE and NOTICE). Exit status 1 when the data files are \
            missing or damaged; the rest is printed anyway.
            """)

    @Option(help: ArgumentHelp(DataDirectory.optionHelp))
    var data: String?

    func run() throws {
        print("geo-enrich \(GeoEnrichCommand.configuration.version)")
        print("commit:   \(BuildInfo.commit)")
        print("H3:       bit-exact with H3 \(BuildInfo.h3Version) (uber/h3; pure-Swift port, no libh3)")
        print("geodesic: Karney's algorithms in Swift, bit-exact with PROJ 9.5.1's geod_inverse (pyproj 3.7.2; no libproj)")
        print("GEOS:     \(NativeLibraries.geosVersion) (run time, dynamically linked)")
        if let exe = DataDirectory.executablePath() { print("binary:   \(exe)") }

        var failed = false
        do {
            let found = try DataDirectory.find(data)
            print("data:     \(found.path) (\(found.origin))")
            let files: [(String, (String) throws(DataFileError) -> DataFile)] = [
                (LocationLookup.countriesFile, { (p: String) throws(DataFileError) in try CountryIndex(path: p).file }),
                (LocationLookup.postalFile, { (p: String) throws(DataFileError) in try PostalIndex(path: p).file }),
                (LocationLookup.zipCodeFile, { (p: String) throws(DataFileError) in try PostalIndex(path: p).file }),
                (LocationLookup.timeZoneFile, { (p: String) throws(DataFileError) in try TimeZoneIndex(path: p).file }),
            ]
            let optional: Set = [LocationLookup.zipCodeFile, LocationLookup.timeZoneFile]
            for (name, open) in files {
                // read only when asked (--postal-countries US, --timezone): absent is not a failure
                if optional.contains(name), !DataDirectory.readable(found.path + "/" + name) {
                    print("  \(name): not installed (needed only by " + (name == LocationLookup.zipCodeFile ? "--postal-countries US" : "--timezone") + ")")
                    continue
                }
                do {
                    let f = try open(found.path + "/" + name)
                    let checksum = String(f.checksum, radix: 16)
                    print("  \(name): \(f.magic) format \(f.formatVersion), \(f.size) bytes, "
                          + "checksum \(String(repeating: "0", count: 16 - checksum.count) + checksum), source \"\(f.source)\"")
                } catch {
                    print("  \(name): \(error)")
                    failed = true
                }
            }
        } catch {
            print("data:     \(error)")
            failed = true
        }

        print("""
            licences: geo-enrich is Apache-2.0 (LICENSE); H3Core ports uber/h3 (Apache-2.0). In the \
            binary: the Swift runtime, FoundationEssentials and Dispatch (Apache-2.0 with the Runtime \
            Library Exception), swift-argument-parser, swift-nio, async-http-client \
            and their Swift dependencies (Apache-2.0), BoringSSL (Apache-2.0), llhttp (MIT), zlib \
            (zlib). Loaded at run time: GEOS (LGPL-2.1). Data: GeoNames postal codes \
            (CC BY 4.0), Natural Earth countries (public domain), US ZIP codes of PyPI zipcodes \
            (MIT; coordinates GeoNames, CC BY 4.0), time zones of timezone-boundary-builder \
            (ODbL 1.0, from OpenStreetMap data (c) OpenStreetMap contributors).
            """)
        print("notices:  \(noticePath() ?? "NOTICE in the source distribution")")
        if failed { throw ExitCode(1) }
    }

    /// The installed NOTICE beside the binary's prefix, or the repository's next to a SwiftPM build.
    private func noticePath() -> String? {
        guard let exe = DataDirectory.executablePath() else { return nil }
        let bin = DataDirectory.parent(exe)
        var places = [bin + "/../share/doc/geo-enrich/NOTICE"]
        let parts = bin.split(separator: "/")
        if let i = parts.lastIndex(where: { $0.hasPrefix(".build") }) {
            places.append("/" + parts[..<i].joined(separator: "/") + "/NOTICE")
        }
        return places.map(DataDirectory.normalize).first { access($0, R_OK) == 0 }
    }
}
