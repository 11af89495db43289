import Foundation
import PurserCore
import PurserStorage

/// Makes, lists and revokes the admin API's keys, for `purser keys` and `/admin/v1/keys`. A key is shown once, when
/// it is made; the ledger keeps only its secret's hash, so every replica knows a new or revoked key at once.
public struct APIKeyService: Sendable {
    let store: any LedgerStore
    /// The apps a key may be limited to: the configured bundle ids.
    let apps: [String]
    let now: @Sendable () -> Date

    /// The keys of `store`, limited to `apps` (the configured bundle ids).
    public init(store: any LedgerStore, apps: [String], now: @escaping @Sendable () -> Date) {
        self.store = store
        self.apps = apps
        self.now = now
    }

    /// A key as the API and `purser keys list` show it: everything but the secret and its hash.
    public struct View: Hashable, Sendable, Encodable {
        public var name: String
        public var scopes: [String]
        /// `nil`: every app.
        public var apps: [String]?
        public var createdAt: Date
        public var createdBy: String
        public var expiresAt: Date?
        public var revokedAt: Date?
        /// `active`, `expired` or `revoked`.
        public var state: String

        init(_ key: APIKey, now: Date) {
            (name, scopes, apps, createdAt, createdBy) = (key.name, key.scopes, key.apps, key.createdAt, key.createdBy)
            (expiresAt, revokedAt) = (key.expiresAt, key.revokedAt)
            state = key.revokedAt != nil ? "revoked" : key.isUsable(at: now) ? "active" : "expired"
        }
    }

    /// A new key and its secret, which nothing shows again.
    public struct Created: Sendable, Encodable {
        public var key: View
        public var secret: String
    }

    /// The longest a key may be made to last, in days (ten years).
    public static let maxDays = 3650

    /// Makes the key `name` with `scopes`, limited to `apps` (`nil`: every app), expiring `expiresInDays` from now
    /// (`nil`: never), made `by` whom the audit record names. Through the API the caller's key must itself hold every
    /// scope and app it gives (`forbidden_scope`), so no key makes a stronger one.
    public func create(
        name: String, scopes: [String], apps: [String]?, expiresInDays: Int?, by actor: String
    ) async throws -> Created {
        try await create(name: name, scopes: scopes, apps: apps, expiresInDays: expiresInDays, by: actor, caller: nil)
    }

    func create(
        name: String, scopes: [String], apps: [String]?, expiresInDays: Int?, by actor: String, caller: AdminCaller?
    ) async throws -> Created {
        try Self.check(name: name)
        let scopes = try APIKeyScope.parse(scopes)
        let apps = try apps.map { list throws(ServiceError) in try check(apps: list) }
        if let expiresInDays, !(1...Self.maxDays).contains(expiresInDays) {
            throw ServiceError(.invalidExpiry, "expiresInDays must be 1 to \(Self.maxDays)")
        }
        if let caller {
            for scope in scopes where !caller.holds(scope) {
                throw ServiceError(.forbiddenScope, "the key \(caller.key) cannot give the scope \(scope.rawValue)")
            }
            guard caller.covers(apps) else {
                throw ServiceError(.forbiddenScope, "the key \(caller.key) cannot give apps it may not act on")
            }
        }
        let secret = APIKeySecret()
        let at = wholeMilliseconds(now())
        let key = APIKey(
            name: name, secretHash: APIKeySecret.hash(secret.value), scopes: scopes.map(\.rawValue), apps: apps,
            createdAt: at, createdBy: actor, expiresAt: expiresInDays.map { at + Double($0) * 86_400 })
        do {
            try await store.createAPIKey(key)
        } catch let error as StorageError where error.code == .duplicateKey {
            throw ServiceError(.keyExists, "a key named \(name.echoed) exists (a revoked key keeps its name)")
        }
        return Created(key: View(key, now: at), secret: secret.value)
    }

    /// Every key, revoked and expired ones too, oldest first; through the API, only the keys the caller could have
    /// made (`mayManage`): a key of one game learns nothing of another's keys, nor of keys stronger than itself.
    public func list() async throws -> [View] { try await list(visibleTo: nil) }

    func list(visibleTo caller: AdminCaller?) async throws -> [View] {
        let now = now()
        return try await store.apiKeys().filter { Self.mayManage($0, caller: caller) }.map { View($0, now: now) }
    }

    /// The key `name`, revoked and expired too; through the API, a key the caller could not have made is `not_found`
    /// exactly as a name no key has, so its names cannot be probed.
    func key(named name: String, caller: AdminCaller?) async throws -> View {
        guard let key = try await store.apiKeys().first(where: { $0.name == name }),
            Self.mayManage(key, caller: caller)
        else { throw Self.noKey(named: name) }
        return View(key, now: now())
    }

    /// Revokes the key `name` (once; a revoked key is answered as it is); `not_found` when there is none.
    public func revoke(name: String, by actor: String) async throws -> View {
        try await revoke(name: name, by: actor, caller: nil)
    }

    /// Through the API, a key the caller could not have made is `not_found` exactly as a name no key has: it is
    /// neither revoked nor confirmed to exist.
    func revoke(name: String, by actor: String, caller: AdminCaller?) async throws -> View {
        if let caller { _ = try await key(named: name, caller: caller) }
        guard let key = try await store.revokeAPIKey(named: name, by: actor, now: wholeMilliseconds(now())) else {
            throw Self.noKey(named: name)
        }
        return View(key, now: now())
    }

    /// The answer for a key that is not there, or not the caller's to see: the same status, code and message.
    static func noKey(named name: String) -> ServiceError {
        ServiceError(.notFound, "no key is named \(name.echoed)")
    }

    /// The key whose secret this is, when it may be used now (not revoked, not expired).
    func usableKey(secret: String) async throws -> APIKey? {
        guard secret.hasPrefix("purser_"), secret.utf8.count < 128 else { return nil }
        return try await store.apiKey(secretHash: APIKeySecret.hash(secret)).flatMap {
            $0.isUsable(at: now()) ? $0 : nil
        }
    }

    /// Whether `caller` may see, read and revoke `key`: exactly when it could have made it (`create`'s rule): it holds
    /// every scope of the key and may act on every app the key may (a key for every app only for an unlimited
    /// caller). The CLI (`nil`) manages every key.
    static func mayManage(_ key: APIKey, caller: AdminCaller?) -> Bool {
        guard let caller else { return true }
        let scopes = key.scopes.map { APIKeyScope(rawValue: $0) ?? .all }
        return scopes.allSatisfy(caller.holds) && caller.covers(key.apps)
    }

    /// `date` as the ledger keeps it, to the millisecond, so what `create` answers is what `list` reads back.
    private func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }

    /// A name of 1 to 64 letters, digits, `.`, `_` or `-`, not `admin.token` (the legacy token's name in the log).
    static func check(name: String) throws(ServiceError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...64).contains(name.count), name.allSatisfy(allowed.contains), name != "admin.token" else {
            throw ServiceError(
                .invalidKeyName, "a key's name is 1 to 64 letters, digits, '.', '_' or '-' (and not admin.token)")
        }
    }

    /// Each app a configured one (`unknown_app` otherwise), each once; at least one.
    func check(apps list: [String]) throws(ServiceError) -> [String] {
        var checked: [String] = []
        for app in list.flatMap({ $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }) {
            guard apps.contains(app) else {
                throw ServiceError(
                    .unknownApp, "\(app.echoed) is not an app of this Purser (\(apps.joined(separator: ", ")))")
            }
            if !checked.contains(app) { checked.append(app) }
        }
        guard !checked.isEmpty else {
            throw ServiceError(.invalidApps, "apps must name at least one app; leave it out for a key of every app")
        }
        return checked
    }
}
