import GeoModel
import Testing
import TestSupport
@testable import RecordCodec

/// The reader's cache of session ids gives the id that `SessionID(String)` makes, whatever the
/// order, the lengths and the slots' collisions; and the parser's cached path gives the record
/// the public path gives.
@Suite("SessionIDCache")
struct SessionIDCacheTests {
    static func id(_ cache: inout SessionIDCache, _ text: String) -> SessionID {
        Array(text.utf8).withUnsafeBufferPointer { cache.id(utf8: $0) }
    }

    @Test("each id read back equals the one made from its string, over many more ids than slots")
    func sameIDs() {
        let seed = testSeed("SessionIDCacheTests.sameIDs")
        var random = SplitMix64(seed: seed)
        // lengths 1 to 56 (past the 48 bytes kept), ASCII and multi-byte characters, ids one
        // byte apart, and the empty bytes of a key's padding as a character
        let alphabet: [String] = ["a", "b", "s", "-", "0", "9", "é", "日", "\u{0}", "🙂"]
        var pool: [String] = []
        for _ in 0..<(3 * SessionIDCache.slotCount) {
            let length = Int(random.next() % 56) + 1
            pool.append(String((0..<length).map { _ in Character(alphabet[Int(random.next() % UInt64(alphabet.count))]) }))
        }
        pool += (0..<500).map { "s-\($0)" } + (0..<500).map { "s-\($0)\u{0}" }
        // the clickstream SDK's form, ids that differ only in their last bytes: in each word of
        // the key in turn (bytes 0-7, 8-15, …, 40-47) and past it, and UUIDs
        pool += (0..<300).map { "0E6614B7-20251127-\(String(1_000_000_000 + $0).dropFirst())" }
        pool += (0..<300).map { "8F14E45F-CEEA-467A-9575-\(String(1_000_000_000_000 + $0).dropFirst())" }
        for k in [0, 8, 16, 24, 32, 40, 48] {
            pool += (0..<50).map { String(repeating: "x", count: k) + "\($0 % 10)" + String(repeating: "y", count: 3) }
        }
        var cache = SessionIDCache()
        for round in 0..<3 {
            for _ in 0..<pool.count {
                let text = pool[Int(random.next() % UInt64(pool.count))]
                let got = Self.id(&cache, text)
                let made = SessionID(text)!
                #expect(got == made && got.rawValue == text && got.stableHash == made.stableHash,
                        "round \(round), \(text.debugDescription), seed 0x\(String(seed, radix: 16))")
            }
        }
    }

    @Test("two ids that share a slot, read in turn, each come back as themselves")
    func collisions() throws {
        let first = "s-1"
        let slot = SessionIDCache.slot(ofUTF8: Array(first.utf8))
        let other = try #require((2..<1_000_000).lazy.map { "s-\($0)" }.first {
            SessionIDCache.slot(ofUTF8: Array($0.utf8)) == slot
        })
        var cache = SessionIDCache()
        for k in 0..<10 {
            let text = k % 2 == 0 ? first : other
            #expect(Self.id(&cache, text).rawValue == text, "\(first) and \(other), read \(k)")
        }
    }

    @Test("a stream of ever new ids turns the table off, and ids seen again turn it back on")
    func bypass() {
        var cache = SessionIDCache()
        // two windows of ids never seen again: the first window with too few hits turns it off
        for n in 0..<(2 * 4_096) { #expect(Self.id(&cache, "new-\(n)").rawValue == "new-\(n)") }
        #expect(cache.isBypassed)
        // ids still right while it is off; 16 windows later it tries again, and a few sessions
        // seen over and over keep it on
        for n in 0..<(17 * 4_096 + 10) {
            let text = "s-\(n % 10)"
            #expect(Self.id(&cache, text).rawValue == text)
        }
        for n in 0..<(3 * 4_096) { _ = Self.id(&cache, "s-\(n % 10)") }
        #expect(!cache.isBypassed)
    }

    @Test("the parser's cached path gives the public path's record and the id of its session_id")
    func parserPaths() {
        let lines = [
            #"{"type":"location","session_id":"s-1","timestamp":1764237602805,"latitude":43.5,"longitude":-79.3}"#,
            #"{"type":"track","session_id":"s-1","timestamp":"2025-11-27T10:00:01.558Z"}"#,
            #"{"type":"track","session_id":"s-\u0031","timestamp":1}"#,                 // escaped: "s-1"
            #"{"type":"track","session_id":"0E6614B7-20251127-000000042-and-more","timestamp":1}"#,
            #"{"type":"track","session_id":"","timestamp":1}"#,
            #"{"type":"track","session_id":7,"timestamp":1}"#,
            #"{"type":"track","timestamp":1}"#,
            #"not json"#,
        ]
        var memory = ReaderMemory()
        let parser = RecordParser()
        for line in lines + lines {
            let bytes = Array(line.utf8)
            let plain = bytes.withUnsafeBufferPointer { parser.parse($0) }
            let (cached, id) = bytes.withUnsafeBufferPointer { parser.parse($0, memory: &memory) }
            #expect(cached == plain, "\(line)")
            if case .record(let record) = plain {
                #expect(id == SessionID(record.sessionID), "\(line)")
            } else {
                #expect(id == nil, "\(line)")
            }
        }
    }

    /// The parser begins an id's lookup before the record's other fields are checked and
    /// finishes it after (``SessionIDCache/begin(utf8:count:readable:)``); the id is the
    /// same whichever way: near the line's end (fewer than 16 bytes readable), for ids of
    /// every length around the two words read at once (and ids that differ in their last byte
    /// only), and when the line turns out bad after its id was begun (the next line's id at
    /// the same address).
    @Test("an id whose lookup was begun comes back as the id of its bytes")
    func begunLookups() {
        var memory = ReaderMemory()
        let parser = RecordParser()
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
        defer { buffer.deallocate() }
        var lines: [(String, String?)] = []
        for length in [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 49] {
            let id = String(repeating: "k", count: length - 1) + "\(length % 10)"
            // ids that differ in their last byte only, one read right after the other
            let other = String(repeating: "k", count: length - 1) + "x"
            lines.append((#"{"type":"track","session_id":"\#(id)","timestamp":1}"#, id))
            lines.append((#"{"type":"track","session_id":"\#(other)","timestamp":1}"#, other))
            lines.append((#"{"type":"track","timestamp":1,"session_id":"\#(id)"}"#, id))
            lines.append((#"{"type":"track","session_id":"\#(id)","timestamp":x}"#, nil))
            lines.append((#"{"tipe":"track","session_id":"z\#(id.dropFirst())","timestamp":1}"#, "z" + id.dropFirst()))
        }
        for (round, _) in [0, 1].enumerated() {
            for (line, expected) in lines {
                let bytes = Array(line.utf8)
                _ = buffer.initialize(from: bytes)
                let (_, id) = parser.parse(UnsafeBufferPointer(rebasing: buffer[..<bytes.count]), memory: &memory)
                #expect(id?.rawValue == expected, "round \(round): \(line)")
                if let expected { #expect(id == SessionID(expected), "round \(round): \(line)") }
            }
        }
    }
}
