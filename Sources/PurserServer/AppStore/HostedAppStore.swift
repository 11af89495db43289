import Hummingbird
import ServiceLifecycle

/// An App Store that runs inside the Purser server's process (the simulator): its routes on the server's router, its
/// long-lived services in the server's service group, and a hook told the port once the server listens (so the
/// simulator can reach the server, and the server the simulator, over loopback).
public struct HostedAppStore: Sendable {
    /// Mounts the App Store's own routes (control API, Apple's endpoints).
    public var addRoutes: @Sendable (Router<PurserRequestContext>) -> Void
    /// Run beside the server, in its service group (the notification sender).
    public var services: [any Service]
    /// Called once the server listens on `port`.
    public var serverStarted: @Sendable (_ port: Int) async -> Void
    /// Logged as a warning at start: a hosted App Store is never production.
    public var warning: String

    public init(
        addRoutes: @escaping @Sendable (Router<PurserRequestContext>) -> Void, services: [any Service],
        serverStarted: @escaping @Sendable (_ port: Int) async -> Void, warning: String
    ) {
        self.addRoutes = addRoutes
        self.services = services
        self.serverStarted = serverStarted
        self.warning = warning
    }
}
