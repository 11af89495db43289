import Hummingbird
import Logging
import NIOCore
import PurserStorage
import ServiceLifecycle

extension PurserAssembly {
    /// The HTTP application: Purser's routes, the admin API (the console too when `admin.token` is set), the hosted App Store's
    /// routes, ledger migrations before the server starts, and every long-lived service in its group: periodic
    /// reconciliation (`reconciliation.intervalSeconds` > 0), Apple follow-ups (`finishing.intervalSeconds` > 0),
    /// webhook delivery (with `webhooks.endpoints`), the hosted App Store's services, the ledger closed on shutdown.
    /// - Parameters:
    ///   - middleware: wraps Purser's routes, inside metrics and error handling (the chaos harness's network faults).
    ///   - onServerRunning: told the port once the server listens (`port` 0 in the configuration picks a free one).
    public func application(
        middleware: [any MiddlewareProtocol<Request, Response, PurserRequestContext>] = [],
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<PurserRequestContext>> {
        let router = Router(context: PurserRequestContext.self)
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ErrorMiddleware(outage: LedgerOutageLog()))
        for item in middleware { router.add(middleware: item) }
        var endpoints = EndpointTable()
        PurserRoutes(
            orders: orders, submissions: submissions, wallets: wallets, authenticator: authenticator,
            notifications: notifications, readiness: ReadinessProbe(store: store),
            apps: [configuration.bundleId]
        ).add(to: router, endpoints: &endpoints)
        AdminRoutes(
            support: support, webhooks: webhooks, wallets: wallets, users: users, keys: apiKeys,
            legacyToken: adminToken, app: configuration.bundleId
        ).add(to: router, endpoints: &endpoints)
        if let adminToken {
            ConsoleRoutes(
                support: support, orders: orders, wallets: wallets,
                goodwillLimit: configuration.console.goodwillLimit,
                unboundAlert: configuration.console.unboundAlertSeconds, webhooks: webhooks, store: store,
                keys: .init(adminToken: adminToken), adminToken: adminToken, app: configuration.bundleId,
                grantLimits: GrantLimits(
                    perGrant: configuration.console.grantLimit, perDay: configuration.console.grantLimitPerDay),
                secureCookies: configuration.console.secureCookies,
                sessionLength: configuration.console.sessionMinutes * 60, throttle: SignInThrottle(store: store),
                proxies: trustedProxies, now: now
            ).add(to: router)
        }
        appStore.hosted?.addRoutes(router)
        router.add(middleware: MethodNotAllowedMiddleware(endpoints: endpoints))
        let readiness = LedgerReadiness()
        var app = Application(
            router: router,
            server: .http1(configuration: configuration.http.channelConfiguration),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "Purser",
                availableConnectionsDelegate: configuration.http.connectionLimit(logger: logger)),
            services: ledgerServices + workers.map { AfterMigration(readiness: readiness, worker: $0) },
            onServerRunning: { [hosted = appStore.hosted] channel in
                let port = channel.localAddress?.port ?? 0
                await hosted?.serverStarted(port)
                await onServerRunning(port)
            },
            logger: logger)
        let (store, logger, warnings, announcement) = (store, logger, startupWarnings, authenticator.announcement)
        let legacyToken = adminToken != nil
        let (operators, bundleId, now) = (consoleOperators, configuration.bundleId, now)
        app.beforeServerStarts {
            do {
                try await store.migrate()
                try await ConsoleRoutes.seed(operators, app: bundleId, store: store, now: now())
            } catch let error as StorageError where error.code == .unavailable {
                throw ConfigurationError("the ledger cannot be reached at start: \(error.message)")
            }
            readiness.open()
            for warning in warnings { logger.warning("\(warning)") }
            if !warnings.contains(announcement) { logger.info("\(announcement)") }
            if legacyToken { logger.notice("\(Self.legacyTokenNotice)") }
        }
        return app
    }

    /// The ledger's own service first (PostgreSQL's connection pool), so it closes last, after the server drained;
    /// then the one that closes the ledger at shutdown.
    var ledgerServices: [any Service] {
        ((store as? any Service).map { [$0] } ?? []) + [LedgerLifecycle(store: store)]
    }

    /// The long-lived workers besides the HTTP server, and the metrics listener (`metrics.port`); `application(…)`
    /// starts each once the ledger is migrated.
    var workers: [any Service] {
        var services = appStore.hosted?.services ?? []
        if !webhooks.endpoints.isEmpty {
            services.append(
                WebhookDeliveryService(
                    store: store, endpoints: webhooks.endpoints, settings: configuration.webhooks,
                    jitter: webhookJitter, holder: LeasedWork.holderName("webhooks"), transport: webhookTransport,
                    logger: logger, now: now))
        }
        if let reconciler, configuration.reconciliation.intervalSeconds > 0 {
            services.append(
                ReconciliationService(
                    reconciler: reconciler,
                    interval: .milliseconds(Int64(configuration.reconciliation.intervalSeconds * 1000)),
                    lease: reconciliationLease(holder: LeasedWork.holderName("serve")), logger: logger)
            )
        }
        services.append(
            HoldExpiryService(
                store: store, interval: .seconds(5), lease: holdExpiryLease(holder: LeasedWork.holderName("serve")),
                logger: logger, now: now))
        if let port = configuration.metrics.port {
            let listener = MetricsListener(
                registry: PurserMetrics.registry,
                gauges: LedgerGauges(store: store, webhooksConfigured: !webhooks.endpoints.isEmpty, now: now),
                token: configuration.metrics.token.flatMap { $0.isEmpty ? nil : $0 }, logger: logger)
            services.append(listener.application(host: configuration.host, port: port, onRunning: { _ in }))
        }
        if configuration.retention.days > 0 {
            services.append(
                RetentionService(
                    store: store, days: configuration.retention.days,
                    interval: .milliseconds(Int64(configuration.retention.intervalSeconds * 1000)),
                    lease: retentionLease(holder: LeasedWork.holderName("serve")), logger: logger, now: now))
        }
        if configuration.admin.token != nil, configuration.console.sampleIntervalSeconds > 0 {
            services.append(
                QueueSamplerService(
                    store: store,
                    interval: .milliseconds(Int64(configuration.console.sampleIntervalSeconds * 1000)),
                    lease: queueSamplerLease(holder: LeasedWork.holderName("serve")), logger: logger, now: now))
        }
        if configuration.database.url == nil, configuration.backup.intervalSeconds > 0 {
            services.append(
                BackupService(
                    ledger: configuration.sqliteLedgerPath, directory: configuration.backupDirectory,
                    keep: configuration.backup.keep,
                    interval: .milliseconds(Int64(configuration.backup.intervalSeconds * 1000)),
                    lease: backupLease(holder: LeasedWork.holderName("serve")), logger: logger, now: now))
        }
        if let appleFollowUps, configuration.finishing.intervalSeconds > 0 {
            services.append(
                AppleFollowUpService(
                    followUps: appleFollowUps,
                    interval: .milliseconds(Int64(configuration.finishing.intervalSeconds * 1000)),
                    lease: appleFollowUpLease(holder: LeasedWork.holderName("serve")), logger: logger))
        }
        return services
    }
}

/// Closes the ledger when the service group shuts down.
struct LedgerLifecycle: Service, CustomStringConvertible {
    let store: any LedgerStore

    func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
    }

    var description: String { "LedgerLifecycle" }
}
