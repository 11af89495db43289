import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// CONSUMPTION_REQUEST answered from the ledger through the configured policy, with Send Consumption Information v2
/// (the default) or v1, received by the simulator's App Store Server API over HTTP.
@Suite struct ConsumptionTests {
    /// Pays for gold60 with or without an order, lets Apple's notifications reach the server, then has Apple ask
    /// for consumption information; returns the transaction id.
    func consumptionRequest(
        server: TestServer, client: some TestClientProtocol, bound: Bool
    ) async throws -> String {
        let order = bound ? try await server.order("gold60", for: "alice", client: client) : nil
        let (id, _) = try await server.pay("gold60", token: order?.appAccountToken)
        await server.appStore.deliverDueNotifications(force: true)
        #expect(try await server.store.transaction(id)?.state == (bound ? .credited : .unbound))
        try await server.appStore.notify("CONSUMPTION_REQUEST", transactionID: id)
        await server.appStore.deliverDueNotifications(force: true)
        return id
    }

    @Test func aDeliveredGrantStillInTheWalletIsReportedUnspentWithNoPreference() async throws {
        try await TestServer.run { server, client in
            let id = try await consumptionRequest(server: server, client: client, bound: true)
            let answer = try #require(await server.serverAPI.consumptionInformationV2(transactionID: id))
            #expect(answer.deliveryStatus == .delivered)
            #expect(answer.consumptionPercentage == 0)
            #expect(answer.refundPreference == nil, "the unspent rule sends none by default")
            #expect(answer.customerConsented)
            #expect(await server.serverAPI.consumptionInformation(transactionID: id) == nil, "v2, not v1")
        }
    }

    @Test func aSpentGrantIsDeclinedAndAnUndeliveredOneGranted() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.consumption.assumeSpent = true }
        try await TestServer.run(configure: configure) { server, client in
            let spent = try await consumptionRequest(server: server, client: client, bound: true)
            let answer = try #require(await server.serverAPI.consumptionInformationV2(transactionID: spent))
            #expect(answer.deliveryStatus == .delivered)
            #expect(answer.consumptionPercentage == 100_000)
            #expect(answer.refundPreference == .decline)

            let unbound = try await consumptionRequest(server: server, client: client, bound: false)
            let undelivered = try #require(await server.serverAPI.consumptionInformationV2(transactionID: unbound))
            #expect(undelivered.deliveryStatus == .undeliveredOther)
            #expect(undelivered.consumptionPercentage == 0)
            #expect(undelivered.refundPreference == .grantFull)
        }
    }

    @Test func thePolicyIsConfigurable() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.consumption.undeliveredStatus = "UNDELIVERED_SERVER_OUTAGE"
            $0.consumption.refundPreference.undelivered = nil
            $0.consumption.sampleContentProvided = true
        }
        try await TestServer.run(configure: configure) { server, client in
            let id = try await consumptionRequest(server: server, client: client, bound: false)
            let answer = try #require(await server.serverAPI.consumptionInformationV2(transactionID: id))
            #expect(answer.deliveryStatus == .undeliveredServerOutage)
            #expect(answer.refundPreference == nil)
            #expect(answer.sampleContentProvided)
        }
    }

    @Test func version1IsKeptForConfigurationsThatAskForIt() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.consumption.version = .v1 }
        try await TestServer.run(configure: configure) { server, client in
            let id = try await consumptionRequest(server: server, client: client, bound: true)
            let answer = try #require(await server.serverAPI.consumptionInformation(transactionID: id))
            #expect(answer.deliveryStatus == 0, "0 is Apple's DELIVERED")
            #expect(answer.consumptionStatus == 1, "1 is not consumed")
            #expect(answer.customerConsented)
            let order = try #require(try await server.store.transaction(id)?.orderID)
            #expect(answer.appAccountToken == order.uuid.uuidString.lowercased())
            #expect(await server.serverAPI.consumptionInformationV2(transactionID: id) == nil)
        }
    }

    @Test func withoutConsentNothingIsSent() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.consumption.customerConsented = false }
        try await TestServer.run(configure: configure) { server, client in
            let id = try await consumptionRequest(server: server, client: client, bound: true)
            #expect(await server.serverAPI.consumptionInformationV2(transactionID: id) == nil)
            #expect(await server.serverAPI.consumptionInformation(transactionID: id) == nil)
        }
    }

    @Test func theConsumedShareIsWhatTheBalanceNoLongerCovers() {
        let grants = Grants(["gold": 60, "gems": 10])
        #expect(ConsumptionResponder.consumedShare(of: grants, balances: ["gold": 500, "gems": 10]) == 0)
        #expect(ConsumptionResponder.consumedShare(of: grants, balances: ["gold": 45, "gems": 10]) == 25_000)
        #expect(ConsumptionResponder.consumedShare(of: grants, balances: ["gold": 45, "gems": 1]) == 90_000)
        #expect(ConsumptionResponder.consumedShare(of: grants, balances: ["gold": -5]) == 100_000)
        #expect(ConsumptionResponder.consumedShare(of: Grants(["gold": 3]), balances: ["gold": 1]) == 66_666)
    }

    @Test func unknownStatusesAndPreferencesAreConfigurationErrors() throws {
        var configuration = ServerConfiguration()
        configuration.consumption.undeliveredStatus = "DELIVERED"
        #expect(throws: ConfigurationError.self) { try configuration.consumptionPolicy() }
        configuration.consumption.undeliveredStatus = "UNDELIVERED_WRONG_ITEM"
        configuration.consumption.refundPreference.spent = "MAYBE"
        #expect(throws: ConfigurationError.self) { try configuration.consumptionPolicy() }
        configuration.consumption.refundPreference.spent = "GRANT_PRORATED"
        #expect(try configuration.consumptionPolicy().undeliveredStatus == .undeliveredWrongItem)
    }
}
