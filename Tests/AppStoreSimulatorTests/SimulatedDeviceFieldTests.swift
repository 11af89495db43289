import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserCore
import Synchronization
import Testing

/// What real devices do that a tidy simulator would not: redelivered transactions losing `applicationUsername`, an
/// empty payment queue until an observer is registered, offline failures, restored purchases.
@Suite("Simulated device: field behaviour")
struct SimulatedDeviceFieldTests {
    typealias Callbacks = SimulatedDeviceTests.Callbacks

    func withDevice<T>(
        _ configuration: SimulatedDevice.Configuration = .init(),
        _ body: (SimulatedDevice, SimulatedAppStore) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-device-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(signer: JWSSigner(authority: authority))
        let device = SimulatedDevice(
            id: "phone", store: store, products: SimulatedDeviceTests.products, directory: directory,
            configuration: configuration)
        return try await body(device, store)
    }

    @Test("redelivered to a later run, applicationUsername is lost at the seeded rate; the paying run keeps it")
    func lostOnRedelivery() async throws {
        func pattern(seed: UInt64) async throws -> [Bool] {
            try await withDevice(.init(applicationUsernameLostOnRedelivery: 0.5, seed: seed)) { device, store in
                let first = device.launch()
                let live = Callbacks()
                _ = device.addObserver(first) { live.record($0) }
                for _ in 0..<40 {
                    await device.addPayment(
                        first, productID: "noads", quantity: 1, applicationUsername: UUID().uuidString)
                }
                let paid = live.all.filter { $0.state == .purchased }.map(\.applicationUsername)
                #expect(paid.count == 40)
                #expect(!paid.contains(nil), "the run that paid sees its username")

                let second = device.launch()
                let replayed = Callbacks()
                _ = device.addObserver(second) { replayed.record($0) }
                let lost = replayed.all.map { $0.applicationUsername == nil }
                let listed = device.queueTransactions(second).map { $0.applicationUsername == nil }
                #expect(listed == lost, "the queue shows the same loss as the callback")
                let tokens = await store.transactions().map(\.appAccountToken)
                #expect(tokens.allSatisfy { $0 != nil }, "Apple kept the token")
                return lost
            }
        }
        let first = try await pattern(seed: 11)
        #expect(first.count == 40)
        #expect((8...32).contains(first.filter { $0 }.count))
        #expect(try await pattern(seed: 11) == first)
        #expect(try await pattern(seed: 12) != first)
    }

    @Test("SKPaymentQueue.transactions is empty until the running app registers an observer")
    func emptyUntilObserved() async throws {
        try await withDevice { device, _ in
            let first = device.launch()
            _ = device.addObserver(first) { _ in }
            await device.addPayment(first, productID: "gold60", quantity: 1, applicationUsername: nil)
            #expect(device.queueTransactions(first).count == 1)

            let second = device.launch()
            #expect(device.queueTransactions(second).isEmpty)
            _ = device.addObserver(second) { _ in }
            #expect(device.queueTransactions(second).map(\.transactionID) == device.unfinishedTransactionIDs)
        }
    }

    @Test("offline: payments fail with a network failure and nothing is charged")
    func offline() async throws {
        try await withDevice { device, store in
            let process = device.launch()
            let callbacks = Callbacks()
            _ = device.addObserver(process) { callbacks.record($0) }
            device.setOffline(true)
            await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: nil)
            #expect(callbacks.all.map(\.state) == [.purchasing, .failed])
            #expect(callbacks.all.last?.failure == .network)
            let result = await device.purchase(process, productID: "gold60", quantity: 1, appAccountToken: nil)
            #expect(result == .failed(.network))
            #expect(await store.purchases().isEmpty)

            device.setOffline(false)
            await device.addPayment(process, productID: "noads", quantity: 1, applicationUsername: nil)
            #expect(await store.purchases().count == 1)
        }
    }

    @Test("restore: each non-consumable comes back as a restored transaction naming the original, until finished")
    func restore() async throws {
        try await withDevice { device, _ in
            let process = device.launch()
            let callbacks = Callbacks()
            _ = device.addObserver(process) { callbacks.record($0) }
            await device.addPayment(process, productID: "noads", quantity: 1, applicationUsername: nil)
            await device.addPayment(process, productID: "gold60", quantity: 1, applicationUsername: nil)
            let bought = device.unfinishedTransactionIDs
            for id in bought { await device.finishTransaction(process, queueID: id) }

            #expect(await device.restoreCompletedTransactions(process) == nil)
            let restored = try #require(callbacks.all.last)
            #expect(restored.state == .restored)
            #expect(restored.productID == "noads")
            #expect(restored.originalTransactionID == bought.first)
            #expect(device.restoredTransactionIDs == [restored.queueID], "consumables are not restored")
            #expect(device.queueTransactions(process).map(\.queueID) == [restored.queueID])

            await device.finishTransaction(process, queueID: restored.queueID)
            #expect(device.restoredTransactionIDs.isEmpty)
            #expect(device.finishCount(of: restored.queueID) == 1)
            device.setOffline(true)
            #expect(await device.restoreCompletedTransactions(process) == .network)
        }
    }
}
