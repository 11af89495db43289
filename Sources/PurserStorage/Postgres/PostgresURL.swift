import Foundation

/// A `postgres://` URL taken apart, libpq's multi-host form included:
/// `postgres://user[:password]@host1[:port1],host2[:port2],…/database[?query]`. A host without a port gets libpq's
/// default, 5432; an IPv6 host is written in brackets (`[::1]:5433`). User, password and database are
/// percent-decoded. Errors never repeat the URL, which may hold a password.
struct PostgresURL: Sendable, Equatable {
    typealias Endpoint = PostgresLedgerStore.Configuration.Server

    var scheme: String
    var user: String
    var password: String?
    var endpoints: [Endpoint]
    /// The database, percent-decoded; empty when the URL names none.
    var database: String
    var queryItems: [URLQueryItem]
    /// The URL as given, in three parts, so that `replacingDatabase` changes nothing else.
    private var prefix: String
    private var suffix: String

    static let defaultPort = 5432

    init(_ url: String) throws(StorageError) {
        guard let separator = url.range(of: "://") else {
            throw StorageError(.unavailable, "the database URL is not a postgres:// URL")
        }
        scheme = String(url[..<separator.lowerBound])
        guard ["postgres", "postgresql"].contains(scheme) else {
            throw StorageError(.unavailable, "the database URL is not a postgres:// URL")
        }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let at = authority.lastIndex(of: "@")
        let hostList = at.map { authority[authority.index(after: $0)...] } ?? authority
        endpoints = try hostList.split(separator: ",", omittingEmptySubsequences: false).map(Self.endpoint)
        guard !endpoints.isEmpty, endpoints.allSatisfy({ !$0.host.isEmpty }) else {
            throw StorageError(.unavailable, "the database URL names no host")
        }
        // Everything but the host list goes through URLComponents, as a single-host URL always did.
        let userInfo = at.map { String(authority[..<$0]) + "@" } ?? ""
        guard let components = URLComponents(string: scheme + "://" + userInfo + "h" + rest[authorityEnd...]) else {
            throw StorageError(.unavailable, "the database URL is not a postgres:// URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StorageError(.unavailable, "the database URL names no user")
        }
        self.user = user
        password = components.password
        database = String(components.path.drop(while: { $0 == "/" }))
        queryItems = components.queryItems ?? []
        prefix = String(url[..<authorityEnd])
        suffix = String(rest[authorityEnd...])
    }

    /// The value of the query parameter `name`, if given.
    func query(_ name: String) -> String? {
        queryItems.first(where: { $0.name == name })?.value
    }

    /// The same URL naming the database `name` (a plain identifier) instead.
    func replacingDatabase(with name: String) -> String {
        let queryStart = suffix.firstIndex { $0 == "?" || $0 == "#" } ?? suffix.endIndex
        return prefix + "/" + name + suffix[queryStart...]
    }

    /// `host:port,host:port/database`: the URL without its user and password, for logs and reports.
    var withoutCredentials: String {
        endpoints.map { ($0.host.contains(":") ? "[\($0.host)]" : $0.host) + ":\($0.port)" }.joined(separator: ",")
            + "/" + database
    }

    private static func endpoint(_ text: Substring) throws(StorageError) -> Endpoint {
        var host = text
        var port: Substring = ""
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw StorageError(.unavailable, "the database URL has an unclosed [ in a host")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw StorageError(.unavailable, "the database URL has a bad host")
            }
            port = after.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        if port.isEmpty { return Endpoint(host: String(host), port: defaultPort) }
        guard let number = Int(port), (1...65_535).contains(number) else {
            throw StorageError(.unavailable, "the database URL has a port that is not a number from 1 to 65535")
        }
        return Endpoint(host: String(host), port: number)
    }
}
