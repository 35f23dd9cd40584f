import CZlib

/// gzip decompression of an input, fed compressed bytes and drained into the reader's buffer
/// (zlib's streaming `inflate`). Concatenated gzip members (`cat a.gz b.gz`, what `gzip`
/// itself reads as one file) are one stream.
///
/// A class: zlib's `z_stream` points into itself and must not move once initialised.
final class GzipInflater {
    private var stream = z_stream()
    /// Compressed bytes read and not yet inflated.
    private var input: [UInt8] = []
    private var inputStart = 0
    /// The last member ended and no byte of another has come yet.
    private(set) var atMemberEnd = false

    /// The two bytes every gzip member starts with (RFC 1952).
    static func isGzip<C: Collection<UInt8>>(_ prefix: C) -> Bool {
        var i = prefix.makeIterator()
        return i.next() == 0x1F && i.next() == 0x8B
    }

    init() throws(StreamError) {
        // 15 + 16: a 32 KiB window, gzip header and trailer (not zlib's)
        let status = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw StreamError("cannot start gzip decompression", "zlib", errno: 0) }
    }

    deinit { inflateEnd(&stream) }

    /// Whether compressed bytes are waiting to be inflated.
    var hasInput: Bool { inputStart < input.count }

    /// Adds compressed bytes.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Inflates what it can into `buffer`.
    /// - Returns: the bytes written (0 when more input is needed).
    /// - Throws: a message for data that is not gzip or is damaged.
    func inflate(into buffer: UnsafeMutableRawBufferPointer) throws(GzipDamage) -> Int {
        var written = 0
        while written < buffer.count && inputStart < input.count {
            if atMemberEnd {
                // another member follows: start over, keeping the window size
                guard inflateReset(&stream) == Z_OK else { throw GzipDamage(message: "cannot restart") }
                atMemberEnd = false
            }
            let (status, used, produced) = input.withUnsafeMutableBytes { source -> (Int32, Int, Int) in
                stream.next_in = source.baseAddress!.assumingMemoryBound(to: Bytef.self) + inputStart
                stream.avail_in = UInt32(source.count - inputStart)
                stream.next_out = (buffer.baseAddress! + written).assumingMemoryBound(to: Bytef.self)
                stream.avail_out = UInt32(buffer.count - written)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, source.count - inputStart - Int(stream.avail_in), buffer.count - written - Int(stream.avail_out))
            }
            inputStart += used
            written += produced
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                atMemberEnd = true
            case Z_BUF_ERROR:
                // no progress possible: more input or more room needed
                if used == 0 && produced == 0 { return written }
            default:
                let text = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw GzipDamage(message: text)
            }
        }
        return written
    }
}

/// Damaged or non-gzip data inside a gzip input: zlib's message.
struct GzipDamage: Error {
    let message: String
}
