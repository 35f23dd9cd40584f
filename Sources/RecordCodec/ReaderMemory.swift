/// What a reading thread keeps from one line to the next: the session ids, the line layouts
/// and the timestamps' date it saw lately (``RecordParser/parse(_:memory:)``).
///
/// Not thread-safe: one per reading thread.
package struct ReaderMemory {
    package var sessionIDs = SessionIDCache()
    package var layouts = LineLayouts()
    var dates = PythonISOTimestamp.DateMemo()

    package init() {}
}
