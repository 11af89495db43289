import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import StoreKitShim
import Testing

/// StoreKit 2's `AppTransaction` on the simulated device, and the StoreKit 1 adapter sending it with the receipt, so
/// the server knows which Apple account a StoreKit 1 purchase came from.
@Suite("App transactions")
struct AppTransactionTests {
    @Test("StoreKit 1 submits the signed app transaction with the receipt; StoreKit 2's transaction carries the id")
    func sentWithTheReceipt() async throws {
        for generation in StoreKitGeneration.allCases {
            try await SimulatedApp.run(generation) { app, server in
                let run = try await app.launch(user: "alice")
                let event = try await run.buy("gold60")
                #expect(event.isDelivered)
                let account = SimulatedAppStore.appTransactionID(
                    deviceId: app.device.id, bundleId: ChaosServer.bundleID)
                let sent = try #require(try server.network.submitted.first)
                switch generation {
                case .storeKit1:
                    let signed = try #require(sent.appTransaction, "StoreKit 1 sent no app transaction")
                    let decoded = try await SignedDataVerifier(
                        configuration: .init(trustedRoots: [server.appStore.signer.authority.root])
                    ).verifyAppTransaction(signed)
                    #expect(decoded.appTransactionId == account)
                    #expect(decoded.bundleId == ChaosServer.bundleID)
                case .storeKit2:
                    #expect(sent.appTransaction == nil)
                }
                let stored = try await server.store.transaction(#require(event.transactionID))
                #expect(stored?.transaction.appTransactionID == account)
            }
        }
    }

    @Test("AppTransaction.shared needs the network the first time, then comes from StoreKit's cache until uninstall")
    func cachedLikeStoreKit() async throws {
        try await LiveServer.run { server in
            let device = SimulatedApp(server: server, generation: .storeKit2).device
            let shared = { @Sendable (process: SimulatedProcess) in
                try await SimulatedProcess.$current.withValue(process) { try await AppTransaction.shared }
            }
            device.setOffline(true)
            var process = device.launch()
            await #expect(throws: StoreKitError.self) { try await shared(process) }
            device.setOffline(false)
            let first = try await shared(process)
            #expect(
                first.unsafePayloadValue.appTransactionID
                    == SimulatedAppStore.appTransactionID(deviceId: device.id, bundleId: ChaosServer.bundleID))
            device.setOffline(true)
            process = device.launch()
            #expect(try await shared(process).jwsRepresentation == first.jwsRepresentation)
            device.uninstall()
            process = device.launch()
            await #expect(throws: StoreKitError.self) { try await shared(process) }
        }
    }
}
