import Foundation
import Purser
import PurserChaos
import PurserTesting
import Testing

/// The SDK as its guides show it, against a live `purser serve` the test starts: the one-line setup, a balance that
/// follows every change, a refusal's own message, and prices from a `.storekit` file as numbers.
@Suite struct SDKAgainstServeTests {
    let serve = ServeCommandTests()
    let ana = PurserSession(userID: "ana", authorization: .development)

    /// `purser serve` with the simulator inside it (gold60 and noads) and `environment`; its base URL.
    func startServe(in directory: URL, environment: [String: String] = [:]) async throws -> (ChildProcess, URL) {
        try await SimulatorStoreAdapterTests().startServe(in: directory, environment: environment)
    }

    /// The coordinator as the guides build it: one line, its journals in `directory`.
    func coordinator(_ base: URL, in directory: URL) throws -> PurchaseCoordinator {
        try PurchaseCoordinator(
            server: base, store: SimulatorStoreAdapter(server: base), app: "com.example.game",
            directory: directory.appendingPathComponent("app"), configuration: .init(signals: .none))
    }

    /// Waits up to 10 s for `condition`.
    func eventually(_ condition: @escaping @MainActor () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return await condition()
    }

    /// The first element of `stream` within 5 s; nil when none came (a listener that would otherwise wait forever).
    func first<Element: Sendable>(of stream: AsyncStream<Element>) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask { await stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func theShopsBalanceFollowsPurchasesAndSpendsWhereverTheyAreMade() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await startServe(in: directory, environment: ["PURSER_WALLET_CLIENT_SPEND": "true"])
        defer { server.terminate() }
        let app = try coordinator(base, in: directory)
        await app.start(session: ana)
        let shop = await PurserStore(coordinator: app, language: .english)
        let listener = Task { await shop.listen() }
        defer { listener.cancel() }
        await shop.load()
        guard let gold = await shop.products.first(where: { $0.id == "gold60" }) else {
            Issue.record("the shop lists no gold60: \(await shop.products)")
            return
        }

        await shop.buy(gold)
        #expect(try await eventually { shop.balances["gold"] == 60 }, "the purchase's credit did not reach the shop")
        // A spend made through the coordinator, not the shop: the shop still follows it.
        let sword = try await app.spend(["gold": 50], reason: "sword")
        #expect(sword.balances["gold"] == 10)
        #expect(try await eventually { shop.balances["gold"] == 10 }, "the shop kept showing 60 after a spend")
        // Through the shop: refused (nothing taken, and the message says so), then spent.
        #expect(await shop.spend(["gold": 15], reason: "shield") == nil)
        #expect(await shop.errorMessage == "You do not have enough for this. Nothing was taken.")
        #expect(await shop.balances["gold"] == 10)
        let potion = await shop.spend(["gold": 10], reason: "potion")
        #expect(potion?.spent == ["gold": 10])
        #expect(await shop.balances["gold"] == 0)
        // A new listener starts with the last wallet read, with no request of its own.
        #expect(try await app.wallet().balances["gold"] == 0)
        let latest = await first(of: app.walletUpdates)
        #expect(latest?.balances["gold"] == 0 && latest?.userId == "ana", "\(String(describing: latest))")
        // Another user signs in: the last wallet was not theirs, so a new listener does not start with it.
        await app.login(PurserSession(userID: "bo", authorization: .development))
        let forBo = app.walletUpdates
        let firstForBo = Task { await first(of: forBo) }
        #expect(try await app.wallet().balances["gold", default: 0] == 0)
        #expect(await firstForBo.value?.userId == "bo")
        await app.shutdown()
    }

    @Test func aRefusedOrderSaysWhyAndAnUnreachableServerSaysSo() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await startServe(in: directory)
        defer { server.terminate() }
        let app = try coordinator(base, in: directory)
        await app.start(session: ana)
        do throws(PurchaseError) {
            _ = try await app.buy("com.example.nothing")
            Issue.record("an unknown product was bought")
        } catch {
            #expect(error.code == "order_refused" && error.description.contains("unknown_product"), "\(error)")
            #expect(error.message(.english) == "This item is not for sale right now. You have not been charged.")
        }
        server.terminate()
        _ = await server.waitUntilExit()
        do throws(PurchaseError) {
            _ = try await app.buy("gold60")
            Issue.record("a purchase started with the server down")
        } catch {
            #expect(error.code == "server_unreachable", "\(error)")
            #expect(error.message(.english).hasPrefix("The store is not reachable right now."))
        }
        await app.shutdown()
    }

    @Test func productsFromAStoreKitFileCarryTheirPricesAsNumbers() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storekit = directory.appendingPathComponent("Shop.storekit")
        try #"""
        {"products": [
           {"productID": "gold60", "type": "Consumable", "displayPrice": "6", "referenceName": "Gold 60",
            "localizations": [{"displayName": "60 Gold", "locale": "zh_CN"}]},
           {"productID": "noads", "type": "NonConsumable", "displayPrice": "12.5", "referenceName": "No Ads"}],
         "settings": {"_locale": "zh_CN", "_storefront": "CHN"}, "version": {"major": 4, "minor": 0}}
        """#.write(to: storekit, atomically: true, encoding: .utf8)
        let (server, base) = try await startServe(
            in: directory, environment: ["PURSER_SIMULATOR_STOREKIT_FILE": storekit.path])
        defer { server.terminate() }
        let app = try coordinator(base, in: directory)
        await app.start(session: ana)
        let products = try await app.products().sorted { $0.id < $1.id }
        #expect(products.map { $0.id } == ["gold60", "noads"])
        #expect(products.map { $0.price } == [Decimal(6), Decimal(string: "12.5")])
        #expect(products.map { $0.currencyCode } == ["CNY", "CNY"])
        #expect(products.map { $0.displayName } == ["60 Gold", "No Ads"])
        #expect(products.allSatisfy { $0.displayPrice.contains($0.id == "gold60" ? "6.00" : "12.50") }, "\(products)")
        await app.shutdown()
    }

    @Test func refusesToStartWithAStoreKitFileItCannotRead() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("Missing.storekit").path
        let run = try await PurserProcess.run(
            [
                "serve", "--port", "0", "--appstore", "simulator", "--auth", "development", "--data-dir",
                directory.appendingPathComponent("data").path,
            ], environment: ["PURSER_SIMULATOR_STOREKIT_FILE": missing])
        #expect(run.status != 0)
        #expect(run.stderr.contains("simulator.storekitFile: cannot read the StoreKit configuration"), "\(run.stderr)")
    }
}
