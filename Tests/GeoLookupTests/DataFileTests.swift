import Dispatch
import Synchronization
import Testing
import TestSupport
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

    /// The checksum, four words a step, against its definition word by word: Σ wᵢ·(2i + 1)
    /// mod 2⁶⁴ over little-endian words, a last partial word padded with zeros, and parts that
    /// start at word `firstWord` adding up to the whole.
    @Test func checksumMatchesItsDefinition() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("checksumMatchesItsDefinition seed \(seed)")
        var rng = SplitMix64(seed: seed)
        func definition(_ bytes: [UInt8], firstWord: UInt64) -> UInt64 {
            var sum: UInt64 = 0
            for k in stride(from: 0, to: bytes.count, by: 8) {
                var w: UInt64 = 0
                for (j, b) in bytes[k..<min(k + 8, bytes.count)].enumerated() { w |= UInt64(b) << (8 * UInt64(j)) }
                sum &+= w &* (2 &* (firstWord &+ UInt64(k / 8)) &+ 1)
            }
            return sum
        }
        var wrong = 0
        for _ in 0..<500 {
            let bytes = (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let firstWord = rng.next() % 3 == 0 ? rng.next() : rng.next() % 1000
            let ours = bytes.withUnsafeBytes { DataFile.checksum($0, firstWord: firstWord) }
            if ours != definition(bytes, firstWord: firstWord) { wrong += 1 }
            // split at a word boundary: the parts add up
            let cut = 8 * Int(rng.next() % UInt64(bytes.count / 8 + 1))
            let parts = bytes.withUnsafeBytes { b in
                DataFile.checksum(UnsafeRawBufferPointer(rebasing: b[..<cut]), firstWord: firstWord)
                    &+ DataFile.checksum(UnsafeRawBufferPointer(rebasing: b[cut...]), firstWord: firstWord &+ UInt64(cut / 8))
            }
            if parts != ours { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
