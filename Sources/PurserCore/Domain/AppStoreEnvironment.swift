/// The App Store environment a transaction or notification belongs to, spelled as Apple spells it.
public enum AppStoreEnvironment: String, Sendable, Codable, CaseIterable, Hashable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"

    /// Whether Apple's servers hold this environment's transactions (production and the sandbox). Xcode's StoreKit
    /// testing and local testing sign on the developer's Mac: Apple never saw those, so nothing is owed to Apple.
    public var isKnownToApple: Bool { self == .production || self == .sandbox }
}
