import GeoBridge
import Testing

@Suite struct NativeLibrariesTests {
    @Test func geosVersionIsReported() {
        let version = NativeLibraries.geosVersion
        #expect(!version.isEmpty)
        #expect(version.hasPrefix("3."))
    }
}
