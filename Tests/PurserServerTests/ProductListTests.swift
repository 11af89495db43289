import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import Testing

/// `GET /v1/products`: the catalog sorted by id, versioned by a content hash that doubles as the `ETag`.
@Suite struct ProductListTests {
    func products(user: String?, ifNoneMatch: [String] = [], client: some TestClientProtocol) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let user { headers[DevelopmentAuthenticator.header] = user }
        for value in ifNoneMatch { headers.append(HTTPField(name: .ifNoneMatch, value: value)) }
        return try await client.execute(uri: "/v1/products", method: .get, headers: headers)
    }

    @Test func listsTheCatalogSortedByIdWithItsVersionAsETag() async throws {
        try await TestServer.run { server, client in
            let response = try await products(user: "alice", client: client)
            #expect(response.status == .ok)
            let list = try response.decode(ProductListResponse.self)
            #expect(
                list.products == [
                    .init(id: "gold120", type: .consumable, grants: Grants(["gold": 120])),
                    .init(id: "gold60", type: .consumable, grants: Grants(["gold": 60])),
                    .init(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1])),
                ])
            #expect(list.version.count == 16)
            #expect(list.version.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(response.headers[.eTag] == "\"\(list.version)\"")
            #expect(response.headers[.contentType] == "application/json")
            #expect(String(buffer: response.body).contains(#""type":"non-consumable""#))

            let again = try await products(user: "bob", client: client)
            #expect(try again.decode(ProductListResponse.self) == list, "the same for every user and every request")

            // The version follows the content. (The catalog keeps products in a dictionary, so the order they were
            // given in never reaches the list; the sorted `products` above are what the version is computed from.)
            func version(_ products: [ProductDefinition]) -> String {
                OrderService(catalog: ProductCatalog(products), store: server.store).productList.version
            }
            let catalog = Array(TestServer.catalog.products.values)
            #expect(version(catalog) == list.version)
            var changed = catalog
            changed.append(ProductDefinition(id: "gems500", type: .consumable, grants: Grants(["gems": 500])))
            #expect(version(changed) != list.version)
            let regranted = catalog.map { product in
                product.id == "gold60"
                    ? ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 61])) : product
            }
            #expect(version(regranted) != list.version)

            #expect(try await products(user: nil, client: client).status == .unauthorized)
        }
    }

    @Test func answersNotModifiedWhileTheETagIsCurrent() async throws {
        try await TestServer.run { _, client in
            let current = try await products(user: "alice", client: client)
            let etag = try #require(current.headers[.eTag])
            for ifNoneMatch in [
                [etag], ["W/\(etag)"], ["\"0123456789abcdef\", \(etag)"], ["\"0123456789abcdef\"", etag], ["*"],
            ] {
                let response = try await products(user: "alice", ifNoneMatch: ifNoneMatch, client: client)
                #expect(response.status == .notModified, "If-None-Match: \(ifNoneMatch)")
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
            }
            for stale in ["\"0123456789abcdef\"", etag.replacingOccurrences(of: "\"", with: ""), "\"\""] {
                let response = try await products(user: "alice", ifNoneMatch: [stale], client: client)
                #expect(response.status == .ok, "If-None-Match: \(stale)")
                #expect(response.headers[.eTag] == etag)
                #expect(try response.decode(ProductListResponse.self).products.count == 3)
            }
            #expect(
                try await products(user: nil, ifNoneMatch: [etag], client: client).status == .unauthorized,
                "authentication comes before the cache")
        }
    }
}
