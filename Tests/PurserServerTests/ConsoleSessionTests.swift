import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The console's sessions and sign-in as an attacker meets them, over live HTTP: signing out ends the session in the
/// ledger (a copy of the cookie is refused afterwards, on every replica), a name no operator has costs the time of a
/// known one, and guesses of the admin token count against the address like any other.
@Suite struct ConsoleSessionTests {
    static let password = ConsoleTests.password

    @Test func signingOutEndsTheSessionInTheLedgerNotOnlyInTheBrowser() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { server, client in
            let token = try await ConsoleTests.post(client, "/console/sign-in", form: ["token": TestServer.adminToken])
            let admin = String(try #require(token.headers[.setCookie]).prefix { $0 != ";" })
            for cookie in [try await ConsoleTests.signIn(client), admin] {
                let page = try await ConsoleTests.get(client, "/console/dashboard", cookie: cookie)
                #expect(page.status == .ok)
                let out = try await ConsoleTests.post(
                    client, "/console/sign-out", form: ["csrf": try ConsoleTests.csrf(in: page)], cookie: cookie)
                #expect(out.status == .seeOther && out.headers[.location] == "/console/sign-in")
                #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
                // The browser forgot the cookie; a copy kept elsewhere is refused as well.
                let copy = try await ConsoleTests.get(client, "/console/dashboard", cookie: cookie)
                #expect(copy.status == .seeOther && copy.headers[.location] == "/console/sign-in", "\(cookie)")
                let id = try #require(cookie.split(separator: ".").dropLast().last.map(String.init))
                #expect(try await server.store.consoleSessionEnded(id), "recorded for every replica to read")
            }
            // Signing in again makes a new session, which works.
            let again = try await ConsoleTests.signIn(client)
            #expect(try await ConsoleTests.get(client, "/console/dashboard", cookie: again).status == .ok)
        }
    }

    /// Without a decoy hash, a name no operator has was answered at once and a known one after the password hash
    /// (1-4 ms against ~100 ms): names could be listed by timing. The least of a few tries of each is compared, so a
    /// busy machine's pauses do not decide it.
    @Test func anUnknownNameCostsAsMuchAsAKnownOne() async throws {
        try await TestServer.run(configure: Self.configureAtTheConsolesCost) { _, client in
            func fastest(_ name: (Int) -> String) async throws -> Duration {
                var times: [Duration] = []
                for attempt in 0..<3 {
                    let started = ContinuousClock.now
                    let refused = try await ConsoleTests.post(
                        client, "/console/sign-in", form: ["operator": name(attempt), "password": "not it at all"])
                    times.append(ContinuousClock.now - started)
                    #expect(refused.status == .unauthorized)
                }
                return try #require(times.min())
            }
            let known = try await fastest { _ in "li" }
            let unknown = try await fastest { "nobody-\($0)" }
            #expect(unknown * 3 > known, "unknown \(unknown), known \(known)")
        }
    }

    /// li, with a hash of the console's own cost (2^15), as `purser console hash-password` makes it.
    static func configureAtTheConsolesCost(_ configuration: inout ServerConfiguration) {
        let hash = try! PasswordHash.make(password).encoded
        configuration.console.operators = [.init(name: "li", passwordHash: hash)]
    }

    /// The admin token is a password too: fifty wrong tokens from one address lock that address, and then even the
    /// right token waits out the window; another address still signs in with it.
    @Test func guessesOfTheAdminTokenCountAgainstTheAddress() async throws {
        try await TestServer.run(configure: ConsoleTests.configureBehindProxy) { server, client in
            for attempt in 0..<50 {
                let wrong = try await ConsoleTests.post(
                    client, "/console/sign-in", form: ["token": "guess-\(attempt)"], forwardedFor: "203.0.113.7")
                #expect(wrong.status == .unauthorized, "\(attempt)")
            }
            let since = Date().addingTimeInterval(-300)
            #expect(
                try await server.store.signInFailures(keys: ["address:203.0.113.7"], since: since) == [
                    "address:203.0.113.7": 50
                ])
            let locked = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["token": TestServer.adminToken], forwardedFor: "203.0.113.7")
            #expect(locked.status == .tooManyRequests && locked.headers[.setCookie] == nil)
            let elsewhere = try await ConsoleTests.post(
                client, "/console/sign-in", form: ["token": TestServer.adminToken], forwardedFor: "198.51.100.9")
            #expect(elsewhere.status == .seeOther)
        }
    }
}
