/// Turns a stream of "is there a usable network path?" answers into recovery triggers: one when the path becomes
/// usable after being unusable, none for the first answer (launch recovers anyway) or for repeats. A value without
/// I/O, so the rule is tested without the Network framework.
public struct ConnectivityTransitions: Sendable, Hashable {
    private var lastSatisfied: Bool?

    /// A rule that has seen no answer yet.
    public init() {}

    /// The trigger for the next answer, if any.
    public mutating func observe(satisfied: Bool) -> RecoveryTrigger? {
        defer { lastSatisfied = satisfied }
        return lastSatisfied == false && satisfied ? .networkAvailable : nil
    }
}
