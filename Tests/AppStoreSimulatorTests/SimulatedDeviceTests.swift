import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserCore
import Synchronization
import Testing

/// StoreKit's queue semantics as the simulated device reproduces them, driven directly (no app, no shim).
@Suite("Simulated device")
struct SimulatedDeviceTests {
    static let products = [
        DeviceProduct(id: "gold60", displayName: "60 Gold", price: 0.99),
        DeviceProduct(id: "noads", displayName: "No Ads", price: 2.99, kind: .nonConsumable),
    ]

    /// Collects StoreKit 1 callbacks.
    final class Callbacks: Sendable {
        private let received = Mutex<[DeviceTransaction]>([])
        var all: [DeviceTransaction] { received.withLock { $0 } }
        func record(_ entries: [DeviceTransaction]) { received.withLock { $0.append(contentsOf: entries) } }
    }

    func withDevice(
        _ configuration: SimulatedDevice.Configuration = .init(),
        _ body: (SimulatedDevice, SimulatedAppStore) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-device-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(signer: JWSSigner(authority: authority))
        let device = SimulatedDevice(
            id: "phone", store: store, products: Self.products, directory: directory,
            configuration: configuration)
        try await body(device, store)
    }

    @Test("re-buying a product with an unfinished purchase only reports purchasing and charges nothing")
    func purchasingOnly() async throws {
        try await withDevice { device, store in
            let process = device.launch()
            let callbacks = Callbacks()
            _ = device.addObserver(process) { callbacks.record($0) }
            await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: nil)
            #expect(callbacks.all.map(\.state) == [.purchasing, .purchased])
            await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: nil)
            #expect(callbacks.all.map(\.state) == [.purchasing, .purchased, .purchasing])
            #expect(await store.purchases().count == 1)
            // A different product is not blocked.
            await device.addPayment(process, productID: "noads", quantity: 1, applicationUsername: nil)
            #expect(await store.purchases().count == 2)
        }
    }

    @Test("unfinished transactions are redelivered to a new observer after a kill; a dead process cannot finish")
    func redeliveryAfterKill() async throws {
        try await withDevice { device, _ in
            let first = device.launch()
            _ = device.addObserver(first) { _ in }
            await device.addPayment(first, productID: "gold60", quantity: 1, applicationUsername: UUID().uuidString)
            let id = try #require(device.unfinishedTransactionIDs.first)
            device.kill()
            await device.finishTransaction(first, queueID: id)
            #expect(device.finishCount(of: id) == 0)

            let second = device.launch()
            let callbacks = Callbacks()
            _ = device.addObserver(second) { callbacks.record($0) }
            #expect(callbacks.all.map(\.transactionID) == [id])
            #expect(device.unfinishedTransactions(second).map(\.transactionID) == [id])
            await device.finishTransaction(second, queueID: id)
            #expect(device.finishCount(of: id) == 1)
            #expect(device.unfinishedTransactionIDs.isEmpty)
        }
    }

    @Test(
        "the receipt carries every unfinished consumable; a finished one leaves it at the next update; uninstall removes it and the container, not the queue"
    )
    func receiptAndUninstall() async throws {
        try await withDevice { device, _ in
            let process = device.launch()
            for _ in 0..<2 {
                await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: nil)
                _ = await device.purchase(process, productID: "gold60", quantity: 1, appAccountToken: nil)
            }
            let ids = device.unfinishedTransactionIDs
            #expect(ids.count == 3, "the second StoreKit 1 payment was blocked by the first")
            let written = try AppReceiptParser.parse(der: Array(Data(contentsOf: device.receiptURL)))
            #expect(written.inAppPurchases.map(\.transactionId) == [ids[0]], "written at the StoreKit 1 payment")
            try await device.refreshReceipt(process)
            let receipt = try AppReceiptParser.parse(der: Array(Data(contentsOf: device.receiptURL)))
            #expect(receipt.inAppPurchases.map(\.transactionId) == ids)

            await device.finishTransaction(process, queueID: ids[0])
            let unchanged = try AppReceiptParser.parse(der: Array(Data(contentsOf: device.receiptURL)))
            #expect(unchanged.inAppPurchases.map(\.transactionId) == ids, "not updated by the finish itself")
            try await device.refreshReceipt(process)
            let after = try AppReceiptParser.parse(der: Array(Data(contentsOf: device.receiptURL)))
            #expect(after.inAppPurchases.map(\.transactionId) == Array(ids.dropFirst()))

            try Data("journal".utf8).write(to: device.keychainDirectory.appendingPathComponent("j"))
            device.uninstall()
            #expect(!FileManager.default.fileExists(atPath: device.containerDirectory.path))
            #expect(FileManager.default.fileExists(atPath: device.keychainDirectory.appendingPathComponent("j").path))
            let reinstalled = device.launch()
            #expect(!FileManager.default.fileExists(atPath: device.receiptURL.path))
            #expect(device.unfinishedTransactions(reinstalled).count == 2)
            try await device.refreshReceipt(reinstalled)
            #expect(FileManager.default.fileExists(atPath: device.receiptURL.path))
        }
    }

    @Test("applicationUsername goes missing at the configured rate, the same way for the same seed")
    func lostUsername() async throws {
        func pattern(seed: UInt64) async throws -> [Bool] {
            var lost: [Bool] = []
            try await withDevice(.init(lostApplicationUsername: .onCallback(rate: 0.5), seed: seed)) { device, store in
                let process = device.launch()
                let callbacks = Callbacks()
                _ = device.addObserver(process) { callbacks.record($0) }
                for _ in 0..<60 {
                    await device.addPayment(
                        process, productID: "noads", quantity: 1,
                        applicationUsername: UUID().uuidString)
                }
                lost = callbacks.all.filter { $0.state == .purchased }.map { $0.applicationUsername == nil }
                // Apple still recorded every token.
                #expect(await store.transactions().allSatisfy { $0.appAccountToken != nil })
            }
            return lost
        }
        let first = try await pattern(seed: 7)
        #expect(first.count == 60)
        #expect((15...45).contains(first.filter { $0 }.count))
        #expect(try await pattern(seed: 7) == first)
        #expect(try await pattern(seed: 8) != first)
    }

    @Test("Ask to Buy defers the payment until a parent approves; the approval reaches the running app")
    func askToBuy() async throws {
        try await withDevice(.init(askToBuy: true)) { device, store in
            let process = device.launch()
            let callbacks = Callbacks()
            _ = device.addObserver(process) { callbacks.record($0) }
            let token = UUID()
            await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: token.uuidString)
            #expect(callbacks.all.map(\.state) == [.purchasing, .deferred])
            #expect(await store.purchases().isEmpty)
            let charged = try await device.approveAskToBuy()
            #expect(charged.count == 1)
            #expect(callbacks.all.last?.state == .purchased)
            #expect(await store.transactions().first?.appAccountToken == token.uuidString.lowercased())
        }
    }
}
