import Hummingbird
import Logging
import NIOCore
import PurserStorage
import ServiceLifecycle

extension PurserAssembly {
    /// The HTTP application of this one app: a studio of one (`PurserStudio.application`), so a single-app server
    /// and a studio are built by the same code.
    /// - Parameters:
    ///   - middleware: wraps Purser's routes, inside metrics and error handling (the chaos harness's network faults).
    ///   - onServerRunning: told the port once the server listens (`port` 0 in the configuration picks a free one).
    public func application(
        middleware: [any MiddlewareProtocol<Request, Response, PurserRequestContext>] = [],
        onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
    ) -> Application<RouterResponder<PurserRequestContext>> {
        PurserStudio(apps: [self]).application(middleware: middleware, onServerRunning: onServerRunning)
    }

    /// This app's routes: the client API, the admin API and (when `admin.token` is set) the console of this app
    /// (`studio`'s operators, sign-in and switcher); the studio's first app (`home`) also serves the hosted App
    /// Store's routes.
    func addRoutes(
        to router: Router<PurserRequestContext>, endpoints: inout EndpointTable, readiness: ReadinessProbe,
        studio: PurserStudio
    ) {
        PurserRoutes(
            orders: orders, submissions: submissions, wallets: wallets, authenticator: authenticator,
            notifications: notifications, readiness: readiness
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
                keys: .init(adminToken: adminToken), adminToken: adminToken,
                app: configuration.bundleId,
                studio: ConsoleStudio(
                    apps: studio.apps.map {
                        .init(bundleId: $0.configuration.bundleId, store: $0.store, support: $0.support)
                    }),
                grantLimits: GrantLimits(
                    perGrant: configuration.console.grantLimit, perDay: configuration.console.grantLimitPerDay),
                secureCookies: configuration.console.secureCookies,
                sessionLength: configuration.console.sessionMinutes * 60,
                throttle: SignInThrottle(store: studio.home.store),
                decoy: .decoy(costOf: (try? configuration.console.checkedOperators().values.map(\.hash)) ?? []),
                proxies: trustedProxies, now: now
            ).add(to: router)
        }
        guard studio.home.configuration.bundleId == configuration.bundleId else { return }
        appStore.hosted?.addRoutes(router)
    }

    /// The ledger's own service first (PostgreSQL's connection pool), so it closes last, after the server drained;
    /// then the one that closes the ledger at shutdown.
    var ledgerServices: [any Service] {
        ((store as? any Service).map { [$0] } ?? []) + [LedgerLifecycle(store: store)]
    }

    /// This app's long-lived workers besides the HTTP server; `PurserStudio.application(…)` starts each once the
    /// ledgers are migrated.
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

    /// The gauges of this app's ledger, read at each scrape.
    var gauges: LedgerGauges {
        LedgerGauges(
            app: configuration.bundleId, store: store, webhooksConfigured: !webhooks.endpoints.isEmpty, now: now)
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
