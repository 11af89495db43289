import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserStorage
import Testing

@testable import PurserServer

/// Roles per app on a studio's Operators page.
extension ConsoleStudioTests {
    @Test func anAdminGivesRolesPerAppOnlyInAppsTheyAdminister() async throws {
        try await Self.run { studio, client in
            try await Self.add("bo", roles: [Self.home: .support], to: studio)
            try await Self.add("di", roles: [Self.home: .admin, Self.racers: .viewer], to: studio)
            let ana = try await Self.signIn(client, as: "ana")
            let page = try await ConsoleTests.get(client, "/console/operators", cookie: ana)
            #expect(Self.html(page).contains("data-app=\"\(Self.racers)\""))
            let csrf = try ConsoleTests.csrf(in: page)
            let given = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "bo", "change": "role", "app": Self.racers, "role": "viewer"],
                cookie: ana)
            #expect(given.status == .ok)
            #expect(
                try await studio.stores[0].consoleOperator("bo")?.roles == [Self.home: .support, Self.racers: .viewer])
            let takenAway = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "bo", "change": "role", "app": Self.racers, "role": "none"], cookie: ana)
            #expect(takenAway.status == .ok)
            #expect(try await studio.stores[0].consoleOperator("bo")?.roles == [Self.home: .support])

            // di administers the first app only: racers' role forms are not drawn and are refused by hand.
            let di = try await Self.signIn(client, as: "di")
            let diPage = try await ConsoleTests.get(client, "/console/operators", cookie: di)
            #expect(diPage.status == .ok && !Self.html(diPage).contains("data-app=\"\(Self.racers)\""))
            let refused = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: [
                    "csrf": try ConsoleTests.csrf(in: diPage), "name": "di", "change": "role", "app": Self.racers,
                    "role": "admin",
                ], cookie: di)
            #expect(refused.status == .forbidden)
            #expect(try await studio.stores[0].consoleOperator("di")?.roles[Self.racers] == .viewer)
        }
    }
}
