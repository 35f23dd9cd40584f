import CGEOS

/// Owns one GEOS reentrant context (`GEOS_init_r` … `GEOS_finish_r`), in which geometries are
/// created and queried.
///
/// GEOS's messages are captured, not printed: the last error text becomes the `message` of the
/// `GEOSError` thrown by the call that failed, and notices are dropped.
///
/// Thread safety: a context, and every `Geometry` and `PreparedGeometry` made in it, must be
/// used from one thread at a time. GEOS contexts are not thread-safe, the captured message is
/// shared mutable state, and a prepared geometry builds its index lazily on the first query.
/// None of these types is `Sendable`, so Swift 6 keeps each one in a single isolation domain.
/// To work in parallel, give each task its own context and geometries.
public final class GEOSContext {
    /// The GEOS handle; valid until `deinit`.
    let handle: GEOSContextHandle_t

    /// Where the C message handlers write; owned here so that it outlives every GEOS call.
    private let messages: MessageLog

    /// Creates a GEOS context with message capture installed.
    /// - Throws: `GEOSError` of kind `.contextUnavailable` if GEOS cannot allocate a context.
    public init() throws(GEOSError) {
        guard let handle = GEOS_init_r() else {
            throw GEOSError(.contextUnavailable, function: "GEOS_init_r", message: nil)
        }
        self.handle = handle
        messages = MessageLog()
        let log = Unmanaged.passUnretained(messages).toOpaque()
        // Non-capturing closures, so they convert to C function pointers; the log comes back
        // through GEOS's user-data pointer. GEOS formats the message before calling us, and some
        // messages end in a newline, which is dropped.
        _ = GEOSContext_setErrorMessageHandler_r(handle, { message, userData in
            guard let message, let userData else { return }
            var text = String(cString: message)
            while text.last?.isNewline == true || text.last == " " {
                text.removeLast()
            }
            Unmanaged<MessageLog>.fromOpaque(userData).takeUnretainedValue().lastError = text
        }, log)
        // Notices (e.g. from validity checks) are not errors; drop them rather than print.
        _ = GEOSContext_setNoticeMessageHandler_r(handle, { _, _ in }, nil)
    }

    deinit {
        // Detach the handlers first so that nothing GEOS says while finishing reaches a log
        // that is being torn down.
        _ = GEOSContext_setErrorMessageHandler_r(handle, nil, nil)
        _ = GEOSContext_setNoticeMessageHandler_r(handle, nil, nil)
        GEOS_finish_r(handle)
    }

    /// Runs one GEOS call with a cleared message log, so that a failure reports its own message
    /// and never a stale one.
    /// - Parameters:
    ///   - kind: The error kind to throw if the call fails.
    ///   - function: The GEOS C function called, for the error.
    ///   - body: The call; returns `nil` on failure.
    /// - Returns: The call's non-nil result.
    /// - Throws: `GEOSError` with GEOS's message when `body` returns `nil`.
    func call<Result>(
        _ kind: GEOSError.Kind, _ function: String,
        _ body: (GEOSContextHandle_t) -> Result?
    ) throws(GEOSError) -> Result {
        messages.lastError = nil
        guard let result = body(handle) else {
            throw GEOSError(kind, function: function, message: messages.lastError)
        }
        return result
    }

    /// The error text GEOS reported during the last `call`, if any.
    var lastErrorMessage: String? { messages.lastError }
}

/// The last error message of a context, written by the C error handler.
private final class MessageLog {
    var lastError: String?
}
