/// Who handles the purchases in a run: Purser, or one of the flows the field uses, each with its well-known flaw.
public enum ChaosStrategy: String, CaseIterable, Sendable, Codable, Hashable {
    case purser
    /// (a) The client finishes the transaction, then asks the server to verify it.
    case finishThenVerify = "finish-then-verify"
    /// (b) The server credits `in_app[0]` of the receipt and ignores the rest.
    case firstInAppOnly = "in-app-0-only"
    /// (c) The server credits every submission; no de-duplication by transaction id.
    case noDeduplication = "no-dedup"
    /// (d) The server credits the account in `applicationUsername`; when it is nil, nobody.
    case trustApplicationUsername = "trust-username"

    /// The field flows, in the order.
    public static let baselines: [ChaosStrategy] = [
        .finishThenVerify, .firstInAppOnly, .noDeduplication,
        .trustApplicationUsername,
    ]

    public var title: String {
        switch self {
        case .purser: "Purser"
        case .finishThenVerify: "(a) finish, then verify"
        case .firstInAppOnly: "(b) in_app[0] only"
        case .noDeduplication: "(c) no de-duplication"
        case .trustApplicationUsername: "(d) trust applicationUsername"
        }
    }
}
