import Hummingbird
import Logging
import NIOCore
import PurserStorage
import ServiceLifecycle

extension PurserStudio {
    /// The HTTP application: every app's routes and console behind `AppDispatchMiddleware`, the first app's hosted
    /// App Store, every ledger migrated (and checked to be its app's) before the server starts, and every long-lived
    /// service in one group: each app's workers (periodic reconciliation, Apple follow-ups, webhook delivery, hold
    /// expiry, retention, backups), the hosted App Store's services, the metrics listener (`metrics.port`), the
    /// ledgers closed on shutdown.
    /// - Parameters:
    ///   - middleware: wraps Purser's routes, inside metrics and error handling (the chaos harness's network faults).
    ///   - onServerRunning: told the port once the server listens (`port` 0 in the configuration picks a free one).
    public func application(
        middleware: [any MiddlewareProtocol<Request, Response, PurserRequestContext>] = [],
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<PurserRequestContext>> {
        let readiness = ReadinessProbe(stores: apps.map(\.store), drain: drain)
        var others: [String: RouterResponder<PurserRequestContext>] = [:]
        for app in apps.dropFirst() {
            let router = Router(context: PurserRequestContext.self)
            var endpoints = EndpointTable()
            app.addRoutes(to: router, endpoints: &endpoints, readiness: readiness, studio: self)
            router.add(middleware: MethodNotAllowedMiddleware(endpoints: endpoints))
            others[app.configuration.bundleId] = router.buildResponder()
        }
        let router = Router(context: PurserRequestContext.self)
        // With tracing on, one server span per request but the probes, continuing the caller's `traceparent`.
        if home.configuration.tracing.enabled { router.add(middleware: RequestTracingMiddleware()) }
        router.add(middleware: RequestIDMiddleware(proxies: home.trustedProxies))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorMiddleware(outage: LedgerOutageLog()))
        for item in middleware { router.add(middleware: item) }
        router.add(middleware: AppDispatchMiddleware(home: home.configuration.bundleId, others: others))
        var endpoints = EndpointTable()
        home.addRoutes(to: router, endpoints: &endpoints, readiness: readiness, studio: self)
        router.add(middleware: MethodNotAllowedMiddleware(endpoints: endpoints))
        let migrated = LedgerReadiness()
        let configuration = home.configuration
        var app = Application(
            router: router,
            server: .http1(configuration: configuration.http.channelConfiguration),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "Purser",
                availableConnectionsDelegate: configuration.http.connectionLimit(logger: home.logger)),
            services: apps.flatMap(\.ledgerServices) + workers(after: migrated),
            onServerRunning: { [hosted = home.appStore.hosted, drain] channel in
                drain.serverListens()
                let port = channel.localAddress?.port ?? 0
                await hosted?.serverStarted(port)
                await onServerRunning(port)
            },
            eventLoopGroupProvider: configuration.http.eventLoopGroupProvider,
            logger: home.logger)
        let (apps, home) = (apps, home)
        app.beforeServerStarts {
            for app in apps { try await app.prepareLedger() }
            do {
                try await ConsoleRoutes.seed(
                    home.consoleOperators, apps: apps.map(\.configuration.bundleId), store: home.store,
                    now: home.now())
            } catch let error as StorageError where error.code == .unavailable {
                throw ConfigurationError("the ledger cannot be reached at start: \(error.message)")
            }
            migrated.open()
            let warnings = home.startupWarnings
            for warning in warnings { home.logger.warning("\(warning)") }
            let announcement = home.authenticator.announcement
            if !warnings.contains(announcement) { home.logger.info("\(announcement)") }
            if home.adminToken != nil { home.logger.notice("\(PurserAssembly.legacyTokenNotice)") }
            if apps.count > 1 {
                let names = apps.map(\.configuration.bundleId).joined(separator: ", ")
                home.logger.info("serving \(apps.count) apps, each with its own ledger: \(names)")
            }
        }
        return app
    }

    /// Every app's workers, each started once the ledgers are migrated and labelled with its app, then the metrics
    /// listener (`metrics.port`), whose ledger gauges cover every app.
    func workers(after migrated: LedgerReadiness) -> [any Service] {
        var services: [any Service] = apps.flatMap { app in
            app.workers.map { AfterMigration(readiness: migrated, worker: $0, app: app.configuration.bundleId) }
        }
        let configuration = home.configuration
        if let port = configuration.metrics.port {
            let listener = MetricsListener(
                registry: PurserMetrics.registry, gauges: apps.map(\.gauges),
                token: configuration.metrics.token.flatMap { $0.isEmpty ? nil : $0 }, logger: home.logger)
            services.append(
                AfterMigration(
                    readiness: migrated,
                    worker: listener.application(host: configuration.host, port: port, onRunning: { _ in }),
                    app: configuration.bundleId))
        }
        return services
    }
}
