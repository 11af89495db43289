import Hummingbird
import Logging
import NIOCore
import PurserCore
import PurserStorage
import ServiceLifecycle

/// Everything the HTTP application needs, built by the caller (the `purser` command or a test).
public struct PurserServerDependencies: Sendable {
    public var orders: OrderService
    public var submissions: SubmissionService
    public var notifications: NotificationService
    public var store: any LedgerStore
    public var authenticator: any Authenticator
    /// The support console; mounted at `/admin/v1` when `adminToken` is set.
    public var support: SupportService?
    /// The admin API's bearer token (a secret); no admin API without it.
    public var adminToken: String?
    /// Lines logged as warnings at start (for example: the App Store simulator's root is trusted).
    public var startupWarnings: [String]

    public init(orders: OrderService, submissions: SubmissionService, notifications: NotificationService,
                store: any LedgerStore, authenticator: any Authenticator, support: SupportService? = nil,
                adminToken: String? = nil, startupWarnings: [String] = []) {
        self.notifications = notifications
        self.support = support
        self.adminToken = adminToken
        self.orders = orders
        self.submissions = submissions
        self.store = store
        self.authenticator = authenticator
        self.startupWarnings = startupWarnings
    }
}

/// The Purser HTTP server.
public enum PurserApplication {
    /// Builds the application: routes, error handling, ledger migrations before the server starts, and the ledger
    /// closed on shutdown. `addMiddleware` runs before Purser's routes are added, so its middleware wraps them (the
    /// chaos harness's network faults); `addRoutes` mounts further routes (the App Store simulator's control API).
    public static func build(
        configuration: ApplicationConfiguration, dependencies: PurserServerDependencies, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in },
        services: [any Service] = [],
        addMiddleware: (Router<PurserRequestContext>) -> Void = { _ in },
        addRoutes: (Router<PurserRequestContext>) -> Void = { _ in }
    ) -> Application<RouterResponder<PurserRequestContext>> {
        let router = Router(context: PurserRequestContext.self)
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: MetricsMiddleware())
        addMiddleware(router)
        PurserRoutes(orders: dependencies.orders, submissions: dependencies.submissions, store: dependencies.store,
                     authenticator: dependencies.authenticator, notifications: dependencies.notifications)
            .add(to: router)
        if let support = dependencies.support, let token = dependencies.adminToken, !token.isEmpty {
            AdminRoutes(support: support, token: token).add(to: router)
        }
        addRoutes(router)
        var app = Application(router: router, configuration: configuration,
                              services: [LedgerLifecycle(store: dependencies.store)] + services,
                              onServerRunning: onServerRunning, logger: logger)
        let store = dependencies.store
        let authenticator = dependencies.authenticator
        let warnings = dependencies.startupWarnings
        app.beforeServerStarts {
            try await store.migrate()
            for warning in warnings { logger.warning("\(warning)") }
            if authenticator is DevelopmentAuthenticator {
                logger.warning("\(authenticator.announcement)")
            } else {
                logger.info("\(authenticator.announcement)")
            }
        }
        return app
    }
}

/// Closes the ledger when the service group shuts down.
struct LedgerLifecycle: Service {
    let store: any LedgerStore

    func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
    }
}
