/// The layouts of the lines a reader saw lately, so that a line laid out like one of them is
/// scanned by comparing its fixed parts instead of walking its grammar.
///
/// A producer writes its records with the same serializer, so its lines differ only in their
/// values: `{"type":"location","session_id":` … `,"timestamp":` … `}`. A layout is a line's
/// bytes outside its values (its *literals*: braces, keys, colons, commas and white space),
/// and which record field each value is. A line *matches* a layout when each literal is there
/// byte for byte and each value between them scans, with ``JSONLineScanner``'s own value
/// scanners chosen by its first byte as the general walk chooses them. The slots are then
/// those the general walk fills, because that walk, over the same bytes, takes the same steps:
/// the same keys, hence the same fields; white space and punctuation compared rather than
/// parsed. A line that matches no layout is scanned by the general walk, and its layout learnt.
///
/// An object value with only scalar members (an event's `data`) is laid out member by member
/// too; any other container is one value, skipped by the general walk
/// (``JSONLineScanner/skipNested(_:)``).
///
/// Matching saves the walk's key scans, key lookups, white space and branches: on the
/// benchmark stream (two layouts) reading a line took about 500 instructions fewer, 1,134 M
/// against 1,034 M for `enrich --workers 1` over its first 200,000 lines (callgrind).
///
/// At most ``capacity`` layouts are kept; a new one replaces the others in turn. When few lines
/// match (lines of ever new layouts), layouts are neither tried nor learnt a while
/// (``CacheBypass``), so such a stream pays only a window's learning now and then.
///
/// Not thread-safe: one per reading thread.
package struct LineLayouts {
    /// How many layouts are kept.
    package static let capacity = 8
    /// The longest layout kept: its literals' bytes, and its values.
    static let maximumLiteralBytes = 1_024
    static let maximumValues = 64

    /// One value of a layout: the literal before it, and the slot its value goes to.
    ///
    /// A literal of 4 to 16 bytes (every key of a record, with its quotes, colon and comma) is
    /// compared as two overlapping words held here, `first` and `last` (8 bytes each from 8
    /// bytes on, 4 below); a longer one also compares the words between in ``literals``.
    struct Value {
        var first: UInt64
        var last: UInt64
        /// The literal's length, in bytes (at least one: a value follows a `:`).
        var literalLength: Int32
        /// The ``RecordSlots`` index the value goes to.
        var slot: UInt8
    }

    /// One layout: its values are `values[firstValue..<firstValue + valueCount]`, its literals
    /// `literals[firstLiteral...]` in order, the last (`tailLength` bytes) ending with the
    /// closing brace.
    struct Layout {
        var firstValue: Int
        var valueCount: Int
        var firstLiteral: Int
        var tailLength: Int
    }

    private var layouts: [Layout] = []
    /// The layout the next one learnt replaces, when all are taken: in turn. (Counting each
    /// layout's matches, to replace the least matched, cost a uniqueness check of the array
    /// a line.)
    private var nextReplaced = 0
    /// The layouts' values and literal bytes, each layout's in a range of its own
    /// (``maximumValues`` and ``maximumLiteralBytes`` a layout, by its index), and one range
    /// more past them that a layout is learnt into before it is copied to its own (a line too
    /// long to keep then leaves the layout it would have replaced intact).
    private var values: [Value]
    private var literals: [UInt8]

    /// The layout to try first for a line, by its first 16 bytes (``startKey(_:)``): the one a
    /// line that started alike matched last. Lines of several layouts mostly differ early (a
    /// record's type is its first value); trying the layouts in their order, a line of the
    /// second layout first failed the first, about 35 instructions a line of the benchmark
    /// stream (callgrind). A hint is only where to start: every layout is still tried.
    private var firstTries = [UInt8](repeating: 0, count: 1 << Self.startKeyBits)
    private static let startKeyBits = 6

    /// Lines of ever new layouts turn the layouts off a while (neither tried nor learnt).
    private var bypass = CacheBypass()
    /// Lines matched since the start (for the tests and statistics).
    package private(set) var linesMatched = 0
    /// Layouts tried that a line did not match, since the start (for the tests).
    package private(set) var failedTries = 0

    package init() {
        values = Array(repeating: Value(first: 0, last: 0, literalLength: 0, slot: UInt8(RecordSlots.otherKey)), count: (Self.capacity + 1) * Self.maximumValues)
        literals = Array(repeating: 0, count: (Self.capacity + 1) * Self.maximumLiteralBytes)
    }

    /// The number of layouts kept (for the tests).
    package var count: Int { layouts.count }

    /// Whether layouts are being neither tried nor learnt (too few lines matched lately).
    var isBypassed: Bool { bypass.isOff }

    // MARK: Scanning

    /// ``JSONLineScanner/scanLine(into:)`` with the layouts: the same answer and slots, by a
    /// match when the line has a known layout, by the general walk otherwise (then learnt).
    @inline(__always)
    mutating func scanLine(_ scanner: JSONLineScanner, into slots: inout RecordSlots) -> JSONLineScanner.Shape {
        guard bypass.shouldLookUp() else { return scanner.scanLine(into: &slots) }
        let count = layouts.count
        let key = Self.startKey(scanner)
        let hinted = key.map { Int(firstTries[$0]) } ?? 0
        let first = hinted < count ? hinted : 0
        // `first`, then the others in their order
        for t in 0..<count {
            let k = t == 0 ? first : (t <= first ? t &- 1 : t)
            // a failed match may have filled slots: each try starts from empty ones
            if t > 0 {
                failedTries &+= 1
                slots = RecordSlots()
            }
            if let closingBrace = match(k, scanner, into: &slots) {
                bypass.hit()
                linesMatched += 1
                if let key, k != first { firstTries[key] = UInt8(k) }
                return .object(closingBrace: closingBrace)
            }
        }
        slots = RecordSlots()
        let shape = scanner.scanLine(into: &slots)
        if case .object = shape { learn(scanner) }
        return shape
    }

    /// The closing brace's offset when the line matches layout `k`, its values in `slots`;
    /// nil otherwise (`slots` then partly filled).
    @inline(__always)
    private func match(_ k: Int, _ scanner: JSONLineScanner, into slots: inout RecordSlots) -> Int? {
        let layout = layouts[k]
        let p = scanner.p, n = scanner.n
        return values.withUnsafeBufferPointer { values -> Int? in
            literals.withUnsafeBufferPointer { literals -> Int? in
                var literal = literals.baseAddress! + layout.firstLiteral
                var i = 0
                for v in layout.firstValue..<(layout.firstValue &+ layout.valueCount) {
                    let value = values[v]
                    let length = Int(value.literalLength)
                    guard i &+ length <= n, Self.equal(p + i, value, literal) else { return nil }
                    i &+= length
                    literal += length
                    // the general walk's dispatch on the value's first byte
                    var slot = ValueSlot()
                    switch scanner.at(i) {
                    case UInt8(ascii: "\""):
                        var escaped = false
                        let close = scanner.scanString(i, escaped: &escaped)
                        guard close >= 0 else { return nil }
                        slot = ValueSlot(kind: .string, start: i &+ 1, end: close, flag: escaped)
                        i = close &+ 1
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        slot.kind = scanner.at(i) == UInt8(ascii: "{") ? .object : .array
                        i = scanner.skipNested(i)
                    case UInt8(ascii: "t"):
                        slot.kind = .trueLiteral
                        i = scanner.scanLiteral(i, "true")
                    case UInt8(ascii: "f"):
                        slot.kind = .falseLiteral
                        i = scanner.scanLiteral(i, "false")
                    case UInt8(ascii: "n"):
                        slot.kind = .null
                        i = scanner.scanLiteral(i, "null")
                    default:
                        var integerSyntax = false
                        // the usual number inlined here, any other by the general scan's call
                        // (not `scanNumber`, which would try the window again)
                        let end = scanner.scanWindowNumber(i, integerSyntax: &integerSyntax)
                            ?? scanner.scanAnyNumber(i, integerSyntax: &integerSyntax)
                        slot = ValueSlot(kind: .number, start: i, end: end, flag: integerSyntax)
                        i = end
                    }
                    guard i >= 0 else { return nil }
                    slots[index: Int(value.slot)] = slot
                }
                let tail = layout.tailLength
                guard i &+ tail <= n, Self.equal(p + i, literal, tail) else { return nil }
                let closingBrace = i &+ tail &- 1
                guard scanner.skipWhitespace(closingBrace &+ 1) == n else { return nil }
                return closingBrace
            }
        }
    }

    /// The key of a line's first 16 bytes in ``firstTries``; nil for a shorter line.
    @inline(__always)
    static func startKey(_ scanner: JSONLineScanner) -> Int? {
        guard scanner.n >= 16 else { return nil }
        let mixed = (scanner.word(at: 0) ^ (scanner.word(at: 8) &* 0x9E37_79B9_7F4A_7C15)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - startKeyBits))
    }

    /// Whether the literal of `value` is at `a` (whose `value.literalLength` bytes may be read);
    /// `literal` is where ``literals`` holds it.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ value: Value, _ literal: UnsafePointer<UInt8>) -> Bool {
        let count = Int(value.literalLength)
        if count >= 8 {
            if count > 16 && !equal(a + 8, literal + 8, count &- 16) { return false }
            return load(a, 0, as: UInt64.self) == value.first && load(a, count &- 8, as: UInt64.self) == value.last
        }
        if count >= 4 {
            return UInt64(load(a, 0, as: UInt32.self)) == value.first && UInt64(load(a, count &- 4, as: UInt32.self)) == value.last
        }
        return equal(a, literal, count)
    }

    /// Whether the `count` bytes at `a` and at `b` are equal.
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for o in 0..<count where a[o] != b[o] { return false }
        return true
    }

    /// The `T` (unaligned, in memory order) at byte `offset` from `p`.
    @inline(__always)
    static func load<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ offset: Int, as: T.Type) -> T {
        UnsafeRawPointer(p + offset).loadUnaligned(as: T.self)
    }

    // MARK: Learning

    /// Learns the layout of a line the general walk accepted as an object, in the place of the
    /// others in turn when all are taken. A line too long to keep is not learnt.
    private mutating func learn(_ scanner: JSONLineScanner) {
        let scratch = Self.capacity
        var builder = Builder(scanner: scanner, firstValue: scratch * Self.maximumValues,
                              firstLiteral: scratch * Self.maximumLiteralBytes)
        guard let tail = builder.build(into: &self) else { return }
        let k: Int
        if layouts.count < Self.capacity {
            k = layouts.count
        } else {
            k = nextReplaced
            nextReplaced = (nextReplaced + 1) % Self.capacity
        }
        let firstValue = k * Self.maximumValues, firstLiteral = k * Self.maximumLiteralBytes
        for v in 0..<builder.valueCount { values[firstValue + v] = values[builder.firstValue + v] }
        for b in 0..<builder.literalCount { literals[firstLiteral + b] = literals[builder.firstLiteral + b] }
        let layout = Layout(firstValue: firstValue, valueCount: builder.valueCount, firstLiteral: firstLiteral, tailLength: tail)
        if k == layouts.count { layouts.append(layout) } else { layouts[k] = layout }
    }

    /// Writes one line's layout into a layout's ranges of ``values`` and ``literals``.
    private struct Builder {
        let scanner: JSONLineScanner
        let firstValue: Int
        let firstLiteral: Int
        var valueCount = 0
        var literalCount = 0
        /// The end of the last value noted: the next literal starts there.
        var cursor = 0

        init(scanner: JSONLineScanner, firstValue: Int, firstLiteral: Int) {
            self.scanner = scanner
            self.firstValue = firstValue
            self.firstLiteral = firstLiteral
        }

        /// Notes the value at `start..<end`; false when the layout would be too long.
        mutating func note(_ field: JSONLineScanner.Field?, start: Int, end: Int,
                           into layouts: inout LineLayouts) -> Bool {
            guard valueCount < LineLayouts.maximumValues, copyLiteral(upTo: start, into: &layouts) else { return false }
            let literal = scanner.p + cursor, length = start - cursor
            var value = Value(first: 0, last: 0, literalLength: Int32(length), slot: UInt8(field?.rawValue ?? RecordSlots.otherKey))
            if length >= 8 {
                value.first = LineLayouts.load(literal, 0, as: UInt64.self)
                value.last = LineLayouts.load(literal, length - 8, as: UInt64.self)
            } else if length >= 4 {
                value.first = UInt64(LineLayouts.load(literal, 0, as: UInt32.self))
                value.last = UInt64(LineLayouts.load(literal, length - 4, as: UInt32.self))
            }
            layouts.values[firstValue + valueCount] = value
            valueCount += 1
            cursor = end
            return true
        }

        /// Copies the line's bytes from ``cursor`` to `end` as the next literal.
        mutating func copyLiteral(upTo end: Int, into layouts: inout LineLayouts) -> Bool {
            let length = end - cursor
            guard literalCount + length <= LineLayouts.maximumLiteralBytes else { return false }
            for o in 0..<length { layouts.literals[firstLiteral + literalCount + o] = scanner.p[cursor + o] }
            literalCount += length
            return true
        }

        /// Walks the line (valid: the general walk accepted it) noting its values; returns the
        /// tail's length, or nil when the layout is too long.
        mutating func build(into layouts: inout LineLayouts) -> Int? {
            var i = scanner.skipWhitespace(0) + 1  // past "{"
            i = scanner.skipWhitespace(i)
            guard scanner.p[i] != UInt8(ascii: "}") else { return nil }  // `{}` is not worth a layout
            while true {
                var keyEscaped = false
                let keyEnd = scanner.scanString(i, escaped: &keyEscaped)
                let field = scanner.identifyKey(start: i + 1, end: keyEnd, escaped: keyEscaped)
                i = scanner.skipWhitespace(scanner.skipWhitespace(keyEnd + 1) + 1)  // past ":"
                guard let end = value(at: i, field: field, flatten: field == nil, into: &layouts) else { return nil }
                i = scanner.skipWhitespace(end)
                if scanner.p[i] == UInt8(ascii: "}") { break }
                i = scanner.skipWhitespace(i + 1)  // past ","
            }
            let tail = i + 1 - cursor
            guard copyLiteral(upTo: i + 1, into: &layouts) else { return nil }
            return tail
        }

        /// Notes the value at `i` (an object of scalars member by member when `flatten`);
        /// returns the index after it, or nil when the layout is too long.
        mutating func value(at i: Int, field: JSONLineScanner.Field?, flatten: Bool,
                            into layouts: inout LineLayouts) -> Int? {
            let end: Int
            switch scanner.p[i] {
            case UInt8(ascii: "{"):
                if flatten, scanner.skipFlatObject(i) != nil { return flatObject(at: i, into: &layouts) }
                end = scanner.skipNested(i)
            case UInt8(ascii: "["): end = scanner.skipNested(i)
            default: end = scanner.scanScalar(i)
            }
            return note(field, start: i, end: end, into: &layouts) ? end : nil
        }

        /// Notes the scalar members of the object at `i`; returns the index after it.
        mutating func flatObject(at start: Int, into layouts: inout LineLayouts) -> Int? {
            var i = scanner.skipWhitespace(start + 1)
            if scanner.p[i] == UInt8(ascii: "}") { return i + 1 }  // `{}`: all literal
            while true {
                var escaped = false
                let keyEnd = scanner.scanString(i, escaped: &escaped)
                i = scanner.skipWhitespace(scanner.skipWhitespace(keyEnd + 1) + 1)  // past ":"
                guard let end = value(at: i, field: nil, flatten: false, into: &layouts) else { return nil }
                i = scanner.skipWhitespace(end)
                if scanner.p[i] == UInt8(ascii: "}") { return i + 1 }
                i = scanner.skipWhitespace(i + 1)  // past ","
            }
        }
    }
}
