import Foundation
import Purser
import PurserChaos
import PurserCore
import Synchronization
import Testing

/// `events` per listener, and nothing told to sign in that the app is about to sign in anyway: on a simulated device
/// against a live server, through both StoreKit adapters.
@Suite("Events: one stream per listener, nothing that needs sign-in before login")
struct EventListenerTests {
    @Test(
        "a relaunch that logs in after start: redelivered, never not_signed_in", arguments: StoreKitGeneration.allCases)
    func noSignInPromptBeforeLogin(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let id = try await app.payThenCrash(user: "alice")
            let second = try await app.launch(user: nil)
            try await Task.sleep(for: .milliseconds(300))  // the app restores its session, then logs in
            await second.app.login("alice")
            #expect(await second.event(for: id)?.isRedelivered == true)
            #expect(try await server.balance("alice") == 60)
            #expect(
                !second.events.contains { if case .pending(let p) = $0 { p.reason == .notSignedIn } else { false } },
                "no sign-in prompt: \(second.events)")
        }
    }

    @Test("two listeners both hear every event; one that stops takes nothing", arguments: StoreKitGeneration.allCases)
    func everyListenerHearsEveryEvent(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, _ in
            let id = try await app.payThenCrash(user: "alice")
            let second = try await app.launch(user: nil)
            let heard = Mutex<[PurchaseEvent]>([])
            let other = second.coordinator.events
            let listener = Task { for await event in other { heard.withLock { $0.append(event) } } }
            let quitter = Task { for await _ in second.coordinator.events { break } }
            quitter.cancel()
            await second.app.login("alice")
            #expect(await second.event(for: id)?.isRedelivered == true, "the first listener")
            #expect(await eventually { heard.withLock { $0.contains { $0.transactionID == id } } }, "the second")
            listener.cancel()
            _ = await quitter.value
        }
    }
}
