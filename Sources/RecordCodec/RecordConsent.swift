/// The consent states a record may carry in its `consent` field (the Data Cloud seed's values).
public enum RecordConsent: String, Sendable, CaseIterable, Hashable {
    /// `"optIn"`: the user agreed to location tracking.
    case optIn
    /// `"optOut"`: the user refused; the session's location state must be dropped.
    case optOut
    /// `"notSet"`: no answer yet; the engine's policy decides.
    case notSet
}
