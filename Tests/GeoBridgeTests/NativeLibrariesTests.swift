import GeoBridge
import Testing

@Suite struct NativeLibrariesTests {
    @Test func geosVersionIsReported() {
        let version = NativeLibraries.geosVersion
        #expect(!version.isEmpty)
        #expect(version.hasPrefix("3."))
    }

    @Test func projVersionIsMajorMinorPatch() {
        let parts = NativeLibraries.projVersion.split(separator: ".")
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { Int($0) != nil })
    }

    @Test func projReleaseNamesTheVersion() {
        #expect(NativeLibraries.projRelease.contains(NativeLibraries.projVersion))
    }
}
