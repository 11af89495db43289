/// What became of a spend that `spend` could not settle at once and recovery sent again.
public enum SpendOutcome: Sendable, Hashable {
    /// It applied (now, or at the first send: `replayed`).
    case spent(SpendResult)
    /// The server refused it: nothing was taken. The server's error code says why.
    case refused(id: String, code: String)
}
