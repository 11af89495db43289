/// The App Store environment a transaction or notification belongs to, spelled as Apple spells it.
public enum AppStoreEnvironment: String, Sendable, Codable, CaseIterable, Hashable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"
}
