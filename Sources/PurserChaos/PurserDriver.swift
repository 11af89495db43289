import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserCore
import PurserServer
import PurserStorage

/// Runs a plan through Purser: every device's app buys as planned while faults hit it, then the heal phase
/// relaunches the devices that come back, delivers Apple's notifications and reconciles.
struct PurserDriver {
    let server: ChaosServer
    let plan: ChaosPlan
    let configuration: ChaosConfiguration
    let record: ChaosRecord
    let progress: ChaosProgress
    let directory: URL
    /// The apps' HTTP to the server.
    let transport: any PurserHTTPTransport
    /// The game's backend spending the players' gold through the admin API.
    let spender: SpendingBackend
    /// The PostgreSQL primary and standby the run started itself (`database-failover`), nil otherwise.
    var failovers: DatabaseFailovers? = nil

    /// What the heal phase did.
    struct Healing: Sendable {
        var seconds: Double
        var reconciliation: String
        var serverAPIFaults: Int
        /// The webhook outbox once drained (or once the wait gave up), and what the game backend saw.
        var webhooks: ChaosReport.Webhooks
        /// What the spending game backend did.
        var wallet: SpendingBackend.Tally? = nil
    }

    func faultPhase() async throws -> [ChaosApp] {
        let forger = try JWSSigner(
            authority: SimulatorCertificateAuthority.generate(
                validity: .standard(now: server.clock.now()), name: "Not Apple"))
        let harness = PurserAPIClient(baseURL: server.url, app: server.app, transport: transport)
        let apps = plan.devices.map { device in
            ChaosApp(
                plan: device, server: server, directory: directory, record: record,
                sabotage: configuration.sabotage, runSeed: configuration.seed, transport: transport)
        }
        // A server in service has reconciled before (its first run reads every notification sent, later ones only
        // those that failed to arrive): the heal's run is a later one, as in production.
        do {
            _ = try await server.reconcile { _ in }
        } catch {
            progress.note("reconciliation before the faults failed (the heal's will read everything): \(error)")
        }
        let delivery = Task { await deliverNotifications() }
        defer { delivery.cancel() }
        try await apps.roundRobinForEach(limit: configuration.concurrency, steps: \.plan.purchases) { app, purchase in
            try await run(purchase, on: app, harness: harness, forger: forger)
            progress.tick()
        }
        return apps
    }

    private func run(
        _ purchase: PlannedPurchase, on app: ChaosApp, harness: PurserAPIClient,
        forger: JWSSigner
    ) async throws {
        let device = app.device
        if purchase.reinstall { await app.uninstall() }
        try await app.ensureRunning(as: purchase.user)
        server.network.arm(
            Array(repeating: .requestLost, count: purchase.requestsLost)
                + Array(repeating: .responseLost, count: purchase.responsesLost), for: device.id)
        if let fault = purchase.verifyReceiptFault { await server.appStore.injectVerifyReceiptFaults([fault]) }
        if purchase.notificationsLost > 0 { await server.appStore.loseNotifications(purchase.notificationsLost) }
        if purchase.slowPayment { device.queueOutcomes([.payAfter(ChaosApp.slowPaymentSheet)]) }
        if let fault = purchase.receiverFault { server.gameBackend.inject(fault) }
        // A replica dies while this purchase's requests are on their way: SIGKILL, then a restart.
        let kill = purchase.serverKill.flatMap { planned in
            server.replicas.map { replicas in
                Task {
                    try await Task.sleep(for: .milliseconds(planned.afterMilliseconds))
                    try await replicas.kill(planned.replica % replicas.processes.count)
                }
            }
        }
        // The database's primary dies while this purchase's requests are on their way: its standby takes over.
        let failover = purchase.databaseFailoverAfterMilliseconds.flatMap { after in
            failovers.map { failovers in
                Task {
                    try await Task.sleep(for: .milliseconds(after))
                    try await failovers.failOver(writer: harness)
                }
            }
        }
        let latest = try await record.buy(purchase, on: device) {
            let failure = await buyAsAUserWould(purchase.productID, on: app, crash: purchase.crashAt)
            guard purchase.rebuy else { return failure }
            try await app.ensureRunning(as: purchase.user)
            return await buyAsAUserWould(purchase.productID, on: app, crash: nil)
        }
        try await kill?.value
        try await failover?.value
        server.network.disarm(device.id)
        device.discardQueuedOutcomes()
        if let latest { await purchase.refund(latest, at: server.appStore) }
        if let other = purchase.replayBy, let latest, let (_, signed) = try? await server.appStore.transaction(latest) {
            _ = try? await harness.submit(
                SubmitTransactionRequest(signedTransaction: signed),
                as: PurserSession(userID: other, authorization: .development))
        }
        if purchase.forgery { await forge(purchase, harness: harness, forger: forger, device: device) }
        if let operation = purchase.wallet { await spender.perform(operation, for: purchase.user) }
    }

    /// Buys, and when the server could not be reached before anything was charged (a replica restarting after a
    /// kill), taps "buy" again a moment later, up to five times, as a user would; a harness that moved on at once
    /// would burn through its plan in the second a replica is down. Returns the code the last tap failed with.
    private func buyAsAUserWould(_ productID: String, on app: ChaosApp, crash: PurchaseStep?) async -> String? {
        var result = await app.buy(productID, crash: crash)
        var taps = 1
        while taps < 5, case .failure(.server(let error)) = result, error.isRetryable {
            try? await Task.sleep(for: .milliseconds(200))
            result = await app.buy(productID, crash: crash)
            taps += 1
        }
        guard case .failure(let error) = result else { return nil }
        return error.code
    }

    /// Submits a transaction signed by an untrusted chain and a truncated receipt; both must be refused.
    private func forge(
        _ purchase: PlannedPurchase, harness: PurserAPIClient, forger: JWSSigner,
        device: SimulatedDevice
    ) async {
        let id = purchase.forgedTransactionID
        var transaction = JWSTransaction(
            transactionId: id, bundleId: server.app, productId: purchase.productID)
        transaction.originalTransactionId = id
        transaction.purchaseDate = server.clock.now().appStoreMilliseconds
        transaction.quantity = 1
        transaction.type = "Consumable"
        transaction.environment = AppStoreEnvironment.sandbox.rawValue
        let session = PurserSession(userID: purchase.user, authorization: .development)
        record.forged(id)
        if let signed = try? forger.sign(transaction) {
            _ = try? await harness.submit(SubmitTransactionRequest(signedTransaction: signed), as: session)
        }
        if let receipt = try? await server.appStore.receipt(deviceId: device.id) {
            let truncated = Data(receipt.der.prefix(receipt.der.count / 2)).base64EncodedString()
            _ = try? await harness.submit(SubmitTransactionRequest(receipt: truncated, transactionId: id), as: session)
        }
    }

    /// Apple's notification sender: delivers what is due, all through the fault phase.
    private func deliverNotifications() async {
        while !Task.isCancelled {
            await server.appStore.deliverDueNotifications()
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: Heal

    /// Faults stop; returning devices relaunch with each of their users; Apple's pending notifications go out (a day
    /// later, on Apple's retry schedule); reconciliation runs through the App Store Server API.
    func heal(_ apps: [ChaosApp]) async throws -> Healing {
        let started = Date()
        server.network.stop()
        server.gameBackend.heal()
        // A user still looking at a slow payment sheet pays first: Apple charges before anything heals.
        for app in apps {
            while app.device.openPaymentSheets > 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        let waiting = try? await server.store.webhookSummary().waiting
        progress.note("heal: devices relaunch\(Self.stillToDeliver(waiting))")
        try await apps.filter(\.plan.returnsAfterFaults).concurrentForEach(limit: configuration.concurrency) { app in
            for user in app.plan.users { try await app.ensureRunning(as: user) }
            var rounds = 0
            while !app.device.unfinishedTransactionIDs.isEmpty, rounds < 5 {
                await app.recover()
                rounds += 1
            }
            await app.kill()
        }
        progress.note("heal: Apple's notifications")
        for _ in 0..<5 {
            if server.sharesClock { server.clock.advance(by: ChaosClock.healStep) }
            if await server.appStore.deliverDueNotifications(force: true) == 0 { break }
        }
        var random = SeededGenerator(seed: configuration.seed ^ 0x5EED_A11)
        let rate = configuration.rate(.serverAPIErrors)
        let faults = (0..<20).compactMap { _ -> ServerAPIFault? in
            guard rate > 0, Double.random(in: 0..<1, using: &random) < rate else { return nil }
            return Bool.random(using: &random)
                ? ServerAPIFault(status: 429, retryAfter: 0) : ServerAPIFault(status: 500)
        }
        await server.serverAPI.injectFaults(faults)
        progress.note("heal: reconciliation (\(faults.count) App Store Server API faults)")
        // The last run (before the faults, or the server's own with `--reconcile-every`): the heal's reads what
        // came after.
        let before = try? await Reconciler.lastRun(in: server.store)
        var summary = "not run"
        for attempt in 1...5 {
            do {
                summary = try await server.reconcile { [progress] in progress.note("reconciliation: \($0)") }
                break
            } catch {
                summary = "attempt \(attempt) failed: \(error)"
            }
        }
        if let before { summary += "; the last run before the heal: \(before.summary)" }
        for app in apps { record.collectCharges(on: app.device, plan: app.plan) }
        let webhooks = try await drainWebhooks()
        return Healing(
            seconds: Date().timeIntervalSince(started), reconciliation: summary,
            serverAPIFaults: faults.count, webhooks: webhooks)
    }
}
