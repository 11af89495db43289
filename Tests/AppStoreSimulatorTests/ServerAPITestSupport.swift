import AppStoreSimulator
import AppStoreSimulatorHTTP
import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore

/// The App Store transport over HummingbirdTesting's client, so the real `AppStoreServerAPIClient` talks to the
/// simulator's routes. The URL's host is ignored; its path and query go to the router.
struct TestClientTransport: AppStoreHTTPTransport {
    let client: any TestClientProtocol

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var uri = components?.percentEncodedPath ?? request.url.path
        if let query = components?.percentEncodedQuery { uri += "?" + query }
        var headers = HTTPFields()
        for (name, value) in request.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        let response = try await client.executeRequest(
            uri: uri, method: HTTPRequest.Method(rawValue: request.method) ?? .get, headers: headers,
            body: request.body.map { ByteBuffer(bytes: $0) })
        var answered: [String: String] = [:]
        for field in response.headers { answered[field.name.rawName] = field.value }
        return AppStoreHTTPResponse(
            status: Int(response.status.code), headers: answered,
            body: Data(response.body.readableBytesView))
    }
}

/// Records the client's waits instead of waiting.
final class RecordedSleeps: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []
    var delays: [Duration] { lock.withLock { recorded } }
    func record(_ duration: Duration) { lock.withLock { recorded.append(duration) } }
}

/// A clock that moves one millisecond each time it is read, so every purchase and refund has its own `signedDate`.
final class TickingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date()
    func now() -> Date {
        lock.withLock {
            date += 0.001
            return date
        }
    }
}

/// A simulator with its Server API mounted, one registered key, and a verifier that trusts the simulator's root.
struct ServerAPIFixture: Sendable {
    static let bundleID = "com.example.app"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyID = "SIMKEY0001"

    let authority: SimulatorCertificateAuthority
    let store: SimulatedAppStore
    let api: SimulatedServerAPI
    let key = P256.Signing.PrivateKey()
    let sleeps = RecordedSleeps()

    init(pageSize: Int = 20) throws {
        authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let clock = TickingClock()
        store = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: Self.bundleID, appAppleID: 1234),
            now: { clock.now() })
        api = SimulatedServerAPI(store: store, pageSize: pageSize)
    }

    var verifier: SignedDataVerifier {
        SignedDataVerifier(
            configuration: .init(
                trustedRoots: [authority.root],
                claims: ClaimsPolicy(bundleID: Self.bundleID, environments: [.sandbox, .production])))
    }

    /// Runs `body` against the router, after registering the key through the control API.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let registration = ServerAPIRoutes.KeyRegistration(
            issuerId: Self.issuerID, keyId: Self.keyID,
            bundleId: Self.bundleID, publicKeyPEM: key.publicKey.pemRepresentation)
        let json = try JSONEncoder().encode(registration)
        let router = Router()
        SimulatorRoutes(store: store).addRoutes(to: router)
        ServerAPIRoutes(api: api).addRoutes(to: router)
        return try await Application(router: router).test(.router) { client in
            let registered = try await client.execute(
                uri: "/simulator/v1/server-api/keys", method: .post,
                body: ByteBuffer(bytes: json))
            precondition(registered.status == .noContent, "key registration failed: \(registered.status)")
            return try await body(client)
        }
    }

    func client(_ client: any TestClientProtocol, retry: AppStoreServerAPIClient.RetryPolicy = .init())
        throws -> AppStoreServerAPIClient
    {
        let sleeps = sleeps
        return try AppStoreServerAPIClient(
            configuration: .init(
                issuerID: Self.issuerID, keyID: Self.keyID, bundleID: Self.bundleID, privateKey: key,
                baseURL: URL(string: "http://simulator.test")!, retryPolicy: retry,
                sleep: { sleeps.record($0) }),
            transport: TestClientTransport(client: client))
    }

    @discardableResult
    func buy(
        _ productID: String = "gold60", device: String = "device-1", environment: AppStoreEnvironment = .sandbox,
        type: String? = nil
    ) async throws -> JWSTransaction {
        try await store.purchase(.init(productId: productID, environment: environment, type: type, deviceId: device))
            .transaction
    }

    /// A JWT with any header and claims, signed by `key`: for tokens the client would never make.
    static func jwt(header: [String: Any], claims: [String: Any], key: P256.Signing.PrivateKey) throws -> String {
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    /// Claims Apple accepts, issued now, valid for 20 minutes.
    static func claims(at date: Date = Date()) -> [String: Any] {
        let iat = Int(date.timeIntervalSince1970)
        return ["iss": issuerID, "iat": iat, "exp": iat + 1200, "aud": "appstoreconnect-v1", "bid": bundleID]
    }
}
