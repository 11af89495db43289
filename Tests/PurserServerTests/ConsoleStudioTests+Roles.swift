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

    /// An operator's password, state and limits hold in every app they have a role in, so only an admin of all of
    /// them (or the admin token) changes them: an admin of one app neither sees an operator of another app alone nor
    /// changes the account of one who also works in an app they do not administer; roles stay per app.
    @Test func anOperatorsAccountIsChangedOnlyByAnAdminOfEveryAppTheyWorkIn() async throws {
        try await Self.run { studio, client in
            try await Self.add("di", roles: [Self.home: .admin], to: studio)
            try await Self.add("eve", roles: [Self.racers: .admin], to: studio)
            try await Self.add("fay", roles: [Self.home: .support], to: studio)
            try await Self.add("gus", roles: [Self.home: .support, Self.racers: .support], to: studio)
            let before = try await studio.stores[0].consoleOperators()

            let di = try await Self.signIn(client, as: "di")
            let page = try await ConsoleTests.get(client, "/console/operators", cookie: di)
            #expect(page.status == .ok)
            let html = Self.html(page)
            #expect(!html.contains("operator-eve"), "an operator of racers alone is not shown")
            let gus = try #require(Self.row("gus", in: html))
            #expect(gus.contains("data-app=\"\(Self.home)\"") && !gus.contains("data-app=\"\(Self.racers)\""))
            #expect(!gus.contains("class=\"disable\"") && !gus.contains("class=\"set-password\""))
            #expect(!gus.contains("class=\"set-limits\""))
            let fay = try #require(Self.row("fay", in: html))
            #expect(fay.contains("class=\"disable\"") && fay.contains("class=\"set-password\""))
            #expect(fay.contains("class=\"set-limits\""))

            let csrf = try ConsoleTests.csrf(in: page)
            let changes: [[String: String]] = [
                ["change": "password", "password": "a new password of di's"], ["change": "disable"],
                ["change": "enable"], ["change": "limits", "perGrant": "100000", "perDay": "100000"],
            ]
            for change in changes {
                for (name, status) in [("eve", HTTPResponse.Status.notFound), ("gus", .forbidden)] {
                    let refused = try await ConsoleTests.post(
                        client, "/console/operators/change",
                        form: change.merging(["csrf": csrf, "name": name]) { $1 }, cookie: di)
                    #expect(refused.status == status, "\(change) of \(name)")
                }
            }
            #expect(try await studio.stores[0].consoleOperators() == before, "nothing changed")
            // Roles stay per app: di still gives gus a role in the app di administers.
            let role = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "gus", "change": "role", "app": Self.home, "role": "viewer"], cookie: di)
            #expect(role.status == .ok)
            #expect(try await studio.stores[0].consoleOperator("gus")?.roles[Self.home] == .viewer)
            // fay works in di's app alone: di manages her account.
            let renewed = try await ConsoleTests.post(
                client, "/console/operators/change",
                form: ["csrf": csrf, "name": "fay", "change": "password", "password": "fay's new password"],
                cookie: di)
            #expect(renewed.status == .ok)
            #expect(try await studio.stores[0].consoleOperator("fay")?.generation == 2)

            // ana administers both apps: gus's and eve's accounts are hers to change.
            let ana = try await Self.signIn(client, as: "ana")
            let anaPage = try await ConsoleTests.get(client, "/console/operators", cookie: ana)
            #expect(try #require(Self.row("gus", in: Self.html(anaPage))).contains("class=\"set-password\""))
            for name in ["gus", "eve"] {
                let disabled = try await ConsoleTests.post(
                    client, "/console/operators/change",
                    form: ["csrf": try ConsoleTests.csrf(in: anaPage), "name": name, "change": "disable"], cookie: ana)
                #expect(disabled.status == .ok, "\(name)")
                #expect(try await studio.stores[0].consoleOperator(name)?.disabled == true, "\(name)")
            }
        }
    }

    /// The Operators page's row of `name`, from its `<tr>` to its `</tr>`.
    static func row(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "<tr id=\"operator-\(name)\">") else { return nil }
        guard let end = html.range(of: "</tr>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }
}
