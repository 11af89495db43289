import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// The two-person rule under concurrency, over live HTTP.
extension ConsoleRoleTests {
    /// Twelve goodwill credits of 100 posted at once, each on its own connection, by a support operator whose day
    /// allows 500: exactly 500 are credited and seven wait for a second operator (the check and the record were once
    /// two steps, and all twelve, 1,200, were credited).
    @Test func goodwillPostedAtOnceGivesNoMoreThanTheDaysLimit() async throws {
        try await TestServer.run(configure: Self.configureADayOf500) { server, client in
            let zhao = try await Self.signIn(client, as: "zhao")
            let csrf = try ConsoleTests.csrf(
                in: try await ConsoleTests.get(client, "/console/users?id=mei", cookie: zhao))
            let port = try #require(client.port)
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    redirectConfiguration: .disallow,
                    connectionPool: .init(idleTimeout: .seconds(10), concurrentHTTP1ConnectionsPerHostSoftLimit: 12)))
            let answers: [String]
            do {
                answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<12 {
                        group.addTask {
                            let response = try await http.execute(
                                Self.goodwillRequest(port: port, cookie: zhao, csrf: csrf), timeout: .seconds(60))
                            return response.headers.first(name: "Location") ?? "HTTP \(response.status.code)"
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
            #expect(answers.filter { $0.hasSuffix("&credited=1") }.count == 5, "\(answers)")
            #expect(answers.filter { $0.hasSuffix("&requested=1") }.count == 7, "\(answers)")
            let credited = try await server.store.walletHistory(of: "mei", after: nil, limit: 100).entries
            #expect(credited.compactMap { $0.amounts["gold"] }.reduce(0, +) == 500)
            let waiting = try await server.store.consoleGrants(app: TestServer.bundleID, state: .pending, limit: 100)
            #expect(waiting.count == 7 && waiting.allSatisfy { $0.requestedBy == "zhao" && $0.amount == 100 })
        }
    }

    /// `configure`, with a day of 500 per support operator.
    static func configureADayOf500(_ configuration: inout ServerConfiguration) {
        configure(&configuration)
        configuration.console.grantLimitPerDay = 500
    }

    /// A goodwill form of 100 gold for mei, with a key of its own.
    static func goodwillRequest(port: Int, cookie: String, csrf: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/console/users/goodwill")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: cookie)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = [
            "csrf": csrf, "id": "mei", "key": UUID().uuidString, "currency": "gold", "amount": "100", "reason": "lost",
        ]
        request.body = .bytes(
            ByteBuffer(
                string: form.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
                    .joined(separator: "&")))
        return request
    }
}
