import Dispatch
import Synchronization
import Testing
@testable import GeoLookup

@Suite("DataFile")
struct DataFileTests {
    /// A refused file is unmapped once. Its checks throw after the object is whole, so its
    /// `deinit` runs and unmaps it; an `munmap` of its own before that unmapped the address a
    /// second time, and by then another thread could have mapped a file there (a CI run crashed
    /// reading such a file's header). Here one thread opens good files while the other opens
    /// files it refuses: with the double unmap, the good files' pages vanish under their reader.
    @Test("a refused file is unmapped once, so files opened beside it on other threads stay whole")
    func refusedFileUnmapsOnce() throws {
        let good = TestData.data("postal_us.bin")
        let expected = try DataFile(path: good, magic: PostalIndex.magic, version: PostalIndex.formatVersion).checksum
        let rounds = 2_000
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for _ in 0..<rounds {
                if lane == 0 {
                    // the right file for another reader: mapped, then refused for its magic
                    _ = try? DataFile(path: good, magic: "GEOTHER1", version: PostalIndex.formatVersion)
                } else {
                    guard let file = try? DataFile(path: good, magic: PostalIndex.magic, version: PostalIndex.formatVersion),
                          DataFile.checksum(file.payload) == expected else {
                        mismatches.withLock { $0 += 1 }
                        continue
                    }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}
