import AppStoreSimulator
import AppStoreVerification
import Foundation

/// Runs a plan through one field flow, with the same devices, users and faults as Purser met, against its own App
/// Store simulator (so Apple's record holds only this flow's charges). Its heal phase can only relaunch devices:
/// the field flow hears no notifications and does not reconcile. A slow payment changes nothing here: field apps wait
/// for StoreKit's callback however long it takes, so the driver does not spend the time.
struct FieldDriver {
    let strategy: ChaosStrategy
    let plan: ChaosPlan
    let configuration: ChaosConfiguration
    let record: ChaosRecord
    let progress: ChaosProgress
    let directory: URL
    let clock: ChaosClock

    func run() async throws -> (appStore: SimulatedAppStore, server: FieldServer, healSeconds: Double) {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: clock.now()))
        let appStore = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: ChaosServer.bundleID),
            now: { clock.now() })
        let server = FieldServer(flaw: strategy, appStore: appStore)
        let apps = plan.devices.map { device in
            FieldApp(
                plan: device, appStore: appStore, server: server, directory: directory, record: record,
                runSeed: configuration.seed)
        }
        try await apps.roundRobinForEach(limit: configuration.concurrency, steps: \.plan.purchases) { app, purchase in
            await run(purchase, on: app, appStore: appStore, server: server)
            progress.tick()
        }
        let started = Date()
        try await apps.filter(\.plan.returnsAfterFaults).concurrentForEach(limit: configuration.concurrency) { app in
            app.stopFaults()
            for user in app.plan.users {
                app.kill()
                await app.ensureRunning(as: user)
            }
        }
        for app in apps { record.collectCharges(on: app.device, plan: app.plan) }
        return (appStore, server, Date().timeIntervalSince(started))
    }

    private func run(
        _ purchase: PlannedPurchase, on app: FieldApp, appStore: SimulatedAppStore,
        server: FieldServer
    ) async {
        let device = app.device
        if purchase.reinstall { app.uninstall() }
        await app.ensureRunning(as: purchase.user)
        app.arm(
            Array(repeating: .requestLost, count: purchase.requestsLost)
                + Array(repeating: .responseLost, count: purchase.responsesLost))
        if let fault = purchase.verifyReceiptFault { await appStore.injectVerifyReceiptFaults([fault]) }
        let latest = await record.buy(purchase, on: device) { () async -> String? in
            await app.buy(purchase.productID, crash: purchase.crashAt)
            if purchase.rebuy {
                await app.ensureRunning(as: purchase.user)
                await app.buy(purchase.productID, crash: nil)
            }
            return nil
        }
        app.arm([])
        if let latest { await purchase.refund(latest, at: appStore) }
        if let other = purchase.replayBy, let latest, let receipt = try? await appStore.receipt(deviceId: device.id) {
            _ = await server.submit(
                receipt: Data(receipt.der).base64EncodedString(), transactionID: latest,
                applicationUsername: other, submitter: other)
        }
        if purchase.forgery, let receipt = try? await appStore.receipt(deviceId: device.id) {
            record.forged(purchase.forgedTransactionID)
            let truncated = Data(receipt.der.prefix(receipt.der.count / 2)).base64EncodedString()
            _ = await server.submit(
                receipt: truncated, transactionID: purchase.forgedTransactionID,
                applicationUsername: purchase.user, submitter: purchase.user)
        }
    }
}
