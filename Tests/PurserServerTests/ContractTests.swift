import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The server answers as `openapi.yaml` says: each documented path answers exactly its documented methods (405 with
/// `Allow` for the others), and a body that is not JSON is a 415.
@Suite struct ContractTests {
    /// Every path of `openapi.yaml` with the methods it documents, read from the file's `paths:` block.
    static func documentedOperations() throws -> [(path: String, methods: Set<String>)] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        var operations: [(path: String, methods: Set<String>)] = []
        var inPaths = false
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            if !line.hasPrefix(" ") { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                operations.append((String(line.dropFirst(2).dropLast()), []))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                ["get", "head", "post", "put", "patch", "delete"].contains(
                    line.trimmingCharacters(in: .whitespaces).dropLast())
            {
                operations[operations.count - 1].methods.insert(
                    line.trimmingCharacters(in: .whitespaces).dropLast().uppercased())
            }
        }
        return operations
    }

    @Test func everyDocumentedPathAnswersItsMethodsAndA405WithAllowForOthers() async throws {
        let operations = try Self.documentedOperations()
        #expect(operations.count == 26, "openapi.yaml's paths: \(operations.map(\.path))")
        try await TestServer.run { _, client in
            for (path, methods) in operations {
                let concrete = path.replacingOccurrences(
                    of: #"\{[^}]+\}"#, with: "2000000000000001", options: .regularExpression)
                for method in [HTTPRequest.Method.trace, .delete, .put, .patch] where !methods.contains(method.rawValue)
                {
                    let response = try await client.execute(uri: concrete, method: method, headers: [:])
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.errorCode == "method_not_allowed", "\(method) \(path)")
                    let allowed = Set(
                        (response.headers[.allow] ?? "").split(separator: ",").map {
                            $0.trimmingCharacters(in: .whitespaces)
                        })
                    #expect(allowed == methods, "Allow of \(path)")
                }
                for method in methods {
                    let response = try await client.execute(
                        uri: concrete, method: HTTPRequest.Method(method)!, headers: [:])
                    #expect(response.status != .methodNotAllowed, "\(method) \(path) is documented")
                    #expect(
                        response.status != .notFound || response.errorCode != "not_found" || path.contains("{"),
                        "\(method) \(path) has a route")
                }
            }
            let unknown = try await client.execute(uri: "/v1/nothing-here", method: .trace, headers: [:])
            #expect(unknown.status == .notFound)
        }
    }

    @Test func aBodyThatIsNotDeclaredJSONIsA415AndChangesNothing() async throws {
        try await TestServer.run { server, client in
            let body = ByteBuffer(string: #"{"productId": "gold60"}"#)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "application/jsonx", nil] {
                var headers: HTTPFields = [DevelopmentAuthenticator.header: "alice"]
                if let contentType { headers[.contentType] = contentType }
                let response = try await client.execute(uri: "/v1/orders", method: .post, headers: headers, body: body)
                #expect(response.status == .unsupportedMediaType, "\(contentType ?? "no Content-Type")")
                #expect(response.errorCode == "unsupported_media_type")
            }
            #expect(try await server.store.statistics().orders == 0)
            for contentType in ["application/json; charset=utf-8", "Application/JSON", "application/vnd.api+json"] {
                let response = try await client.execute(
                    uri: "/v1/orders", method: .post,
                    headers: [DevelopmentAuthenticator.header: "alice", .contentType: contentType], body: body)
                #expect(response.status == .created, "\(contentType)")
            }
        }
    }
}
