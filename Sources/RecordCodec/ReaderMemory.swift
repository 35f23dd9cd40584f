/// What a reading thread keeps from one line to the next: the session ids and the line
/// layouts it saw lately (``RecordParser/parse(_:memory:)``).
///
/// Not thread-safe: one per reading thread.
package struct ReaderMemory {
    package var sessionIDs = SessionIDCache()
    package var layouts = LineLayouts()

    package init() {}
}
