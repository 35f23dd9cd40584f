#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, memory-mapped data file of geo-enrich's binary container format.
///
/// Layout (little-endian), shared by every data file in `data/`:
///
/// | offset | size | field |
/// |-------:|-----:|-------|
/// | 0      | 8    | magic, ASCII, one per kind of file (e.g. `GEPOSTL1`) |
/// | 8      | 4    | format version (`UInt32`) |
/// | 12     | 4    | header size in bytes (`UInt32`, 128) |
/// | 16     | 8    | payload size in bytes (`UInt64`): the file size minus the header |
/// | 24     | 8    | payload checksum (`UInt64`), see ``checksum(_:)`` |
/// | 32     | 32   | four counts (`UInt64` each), meaning set by the kind of file |
/// | 64     | 64   | source description, UTF-8, NUL-padded |
///
/// The payload starts at byte 128, 8-byte aligned, and is read in place: nothing is parsed at
/// start beyond the header and one pass of the checksum (a few milliseconds for 10 MB).
public final class DataFile: @unchecked Sendable {
    /// The path the file was opened from (for messages).
    public let path: String
    /// The kind of file: the 8-byte magic it was opened with (and checked to have).
    public let magic: String
    /// The format version of the header.
    public let formatVersion: UInt32
    /// The four counts of the header.
    public let counts: [UInt64]
    /// Where the data came from, as the builder wrote it.
    public let source: String
    /// The payload checksum of the header (see ``checksum(_:)``), checked at open: it names
    /// the file's contents (`geo-enrich about`).
    public let checksum: UInt64
    /// The file's size in bytes, header included.
    public var size: Int { mappedLength }
    /// The payload, valid as long as this object lives (mapped read-only, never written:
    /// hence safe to share between threads).
    public let payload: UnsafeRawBufferPointer

    private let base: UnsafeMutableRawPointer
    private let mappedLength: Int

    public static let headerSize = 128

    /// Maps `path` and checks it is a complete, uncorrupted file of the given kind.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - magic: the 8-byte ASCII magic expected at offset 0.
    ///   - version: the format version this reader understands.
    /// - Throws: ``DataFileError`` naming the file and what is wrong with it.
    /// - Complexity: O(n) in the file size, for the checksum.
    public init(path: String, magic: String, version: UInt32) throws(DataFileError) {
        self.path = path
        self.magic = magic
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw DataFileError(path: path, .unreadable(String(cString: strerror(errno)))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw DataFileError(path: path, .unreadable(String(cString: strerror(errno)))) }
        let size = Int(st.st_size)
        guard size >= DataFile.headerSize else {
            throw DataFileError(path: path, .truncated(expected: DataFile.headerSize, actual: size))
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw DataFileError(path: path, .unreadable(String(cString: strerror(errno))))
        }
        base = p
        mappedLength = size
        let raw = UnsafeRawBufferPointer(start: p, count: size)

        func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
        func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }

        let foundMagic = String(decoding: raw[0..<8], as: UTF8.self)
        formatVersion = u32(8)
        counts = (0..<4).map { u64(32 + 8 * $0) }
        source = String(decoding: raw[64..<128].prefix { $0 != 0 }, as: UTF8.self)
        let headerSize = Int(u32(12))
        let payloadSize = u64(16)
        let storedChecksum = u64(24)
        checksum = storedChecksum
        payload = UnsafeRawBufferPointer(rebasing: raw[DataFile.headerSize...])

        do {
            guard foundMagic == magic else { throw DataFileError.Reason.wrongMagic(expected: magic, found: foundMagic) }
            guard formatVersion == version else {
                throw DataFileError.Reason.unsupportedVersion(expected: version, found: formatVersion)
            }
            guard headerSize == DataFile.headerSize else { throw DataFileError.Reason.corrupt("header size \(headerSize)") }
            guard payloadSize == UInt64(size - DataFile.headerSize) else {
                // (a damaged size field can be near 2⁶⁴: the sum saturates rather than trap)
                let (expected, overflow) = DataFile.headerSize.addingReportingOverflow(Int(clamping: payloadSize))
                let claimed = overflow ? Int.max : expected
                if claimed < size { throw DataFileError.Reason.overlong(expected: claimed, actual: size) }
                throw DataFileError.Reason.truncated(expected: claimed, actual: size)
            }
            // a megabyte at a time, each given back once summed: opening does not make the whole
            // file resident (the pages stay in the page cache; lookups fault in what they read)
            var actual: UInt64 = 0
            let chunk = 1 << 20  // a multiple of 8: the words' indices continue across chunks
            var start = 0
            while start < payload.count {
                let end = Swift.min(start + chunk, payload.count)
                actual &+= DataFile.checksum(UnsafeRawBufferPointer(rebasing: payload[start..<end]),
                                             firstWord: UInt64(start / 8))
                releasePages(start..<end)
                start = end
            }
            guard actual == storedChecksum else {
                throw DataFileError.Reason.checksumMismatch(expected: storedChecksum, actual: actual)
            }
        } catch let reason as DataFileError.Reason {
            // No `munmap` here: every stored property is set, so a throw from here on releases
            // the object and its `deinit` unmaps the file. An unmap here as well freed the
            // address twice, the second time under whatever another thread had mapped there
            // meanwhile (DataFileTests.refusedFileUnmapsOnce).
            throw DataFileError(path: path, reason)
        } catch {
            throw DataFileError(path: path, .corrupt("\(error)"))
        }
    }

    deinit { munmap(base, mappedLength) }

    /// The payload checksum: Σ wᵢ·(2i + 1) mod 2⁶⁴ over the payload read as little-endian
    /// 64-bit words wᵢ (a last partial word padded with zeros). Any single-bit error, a
    /// truncation or a swap of two words changes it; 10 MB take a few milliseconds.
    ///
    /// - Complexity: O(n).
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        checksum(bytes, firstWord: 0)
    }

    /// The checksum's terms for `bytes` as the words from index `firstWord` on (a part of a
    /// payload that starts at byte `8 × firstWord`); the parts' sums add up to the whole's.
    static func checksum(_ bytes: UnsafeRawBufferPointer, firstWord: UInt64) -> UInt64 {
        let words = bytes.count / 8
        // four words a step, each into a sum of its own, the weights stepped rather than
        // computed from the index: 9 instructions a word before, about 4 now (callgrind)
        var sums: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var weight = 2 &* firstWord &+ 1  // the weight of word i
        var i = 0
        if let base = bytes.baseAddress {
            @inline(__always) func word(_ k: Int) -> UInt64 {
                UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 &* k, as: UInt64.self))
            }
            while i &+ 4 <= words {
                sums.0 &+= word(i) &* weight
                sums.1 &+= word(i &+ 1) &* (weight &+ 2)
                sums.2 &+= word(i &+ 2) &* (weight &+ 4)
                sums.3 &+= word(i &+ 3) &* (weight &+ 6)
                weight &+= 8
                i &+= 4
            }
            while i < words {
                sums.0 &+= word(i) &* weight
                weight &+= 2
                i &+= 1
            }
        }
        var sum = sums.0 &+ sums.1 &+ sums.2 &+ sums.3
        if bytes.count % 8 != 0 {
            var last: UInt64 = 0
            for (k, b) in bytes[(8 * words)...].enumerated() { last |= UInt64(b) << (8 * UInt64(k)) }
            sum &+= last &* (2 &* (firstWord &+ UInt64(words)) &+ 1)
        }
        return sum
    }

    /// Gives the whole pages inside `range` (payload offsets) back to the system: they leave
    /// this process's resident memory and are read again from the page cache if used. For the
    /// pages an open-time check read once; lookups then keep resident only what they touch.
    public func releasePages(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lower = DataFile.headerSize + range.lowerBound, upper = DataFile.headerSize + range.upperBound
        let start = (lower + page - 1) / page * page
        let end = upper == mappedLength ? (upper + page - 1) / page * page : upper / page * page
        guard end > start else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }

    /// Gives every page of the file back (see ``releasePages(_:)``): after the open-time checks.
    public func releaseAllPages() {
        _ = madvise(base, (mappedLength + Int(sysconf(Int32(_SC_PAGESIZE))) - 1) / Int(sysconf(Int32(_SC_PAGESIZE))) * Int(sysconf(Int32(_SC_PAGESIZE))), MADV_DONTNEED)
    }

    /// A typed view of `count` values of `T` at `offset` in the payload.
    ///
    /// - Throws: ``DataFileError`` when the range lies outside the payload or is misaligned.
    public func array<T>(of: T.Type, at offset: Int, count: Int) throws(DataFileError) -> UnsafeBufferPointer<T> {
        let bytes = MemoryLayout<T>.stride * count
        guard offset >= 0, count >= 0, offset + bytes <= payload.count else {
            throw DataFileError(path: path, .corrupt("section at \(offset) of \(bytes) bytes exceeds the payload of \(payload.count)"))
        }
        let p = payload.baseAddress! + offset
        guard Int(bitPattern: p) % MemoryLayout<T>.alignment == 0 else {
            throw DataFileError(path: path, .corrupt("section at \(offset) is not aligned for \(T.self)"))
        }
        return UnsafeBufferPointer(start: p.assumingMemoryBound(to: T.self), count: count)
    }
}

/// What is wrong with a data file, and which file.
public struct DataFileError: Error, CustomStringConvertible, Equatable {
    public enum Reason: Error, Equatable {
        /// The file cannot be opened, read or mapped (the system's message).
        case unreadable(String)
        /// The file is shorter than its header says.
        case truncated(expected: Int, actual: Int)
        /// The file is longer than its header says (bytes appended, or a damaged size field).
        case overlong(expected: Int, actual: Int)
        /// The file is not of the expected kind.
        case wrongMagic(expected: String, found: String)
        /// The file was written by an incompatible builder.
        case unsupportedVersion(expected: UInt32, found: UInt32)
        /// The payload does not match its checksum.
        case checksumMismatch(expected: UInt64, actual: UInt64)
        /// The structure inside the payload is inconsistent.
        case corrupt(String)
        /// A zone's file of the system's tz database (read for UTC offsets, not one of ours) is
        /// missing or unusable: what is wrong with it.
        case timeZoneDatabase(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .timeZoneDatabase(let m):
            return "time-zone file \(path) \(m); UTC offsets come from the system's tz database: install it "
                + "(Debian: apt install tzdata) or set TZDIR to the folder that holds it"
        case .unreadable(let m): what = "cannot be read: \(m)"
        case .truncated(let e, let a): what = "is truncated: \(a) bytes, expected \(e)"
        case .overlong(let e, let a): what = "is longer than its header says: \(a) bytes, expected \(e)"
        case .wrongMagic(let e, let f): what = "is not a geo-enrich \(e) file (magic \(f.debugDescription))"
        case .unsupportedVersion(let e, let f): what = "has format version \(f); this build reads version \(e)"
        case .checksumMismatch(let e, let a):
            what = "is corrupted: checksum \(String(a, radix: 16)), expected \(String(e, radix: 16))"
        case .corrupt(let m): what = "is corrupted: \(m)"
        }
        return "data file \(path) \(what); rebuild it with scripts/data/build_data.sh or restore it from the repository"
    }
}
