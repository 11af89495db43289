import Foundation

/// Apple's App Store Server API, over any `AppStoreHTTPTransport`: Get Transaction Info, Get Transaction History
/// (v2), Look Up Order ID, Get Refund History, Send Consumption Information, Get Notification History, Request a
/// Test Notification and Set App Account Token (see `AppStoreServerAPIClient+Endpoints.swift`).
///
/// Every request carries `Authorization: Bearer` with a cached ES256 token (`AppStoreServerAPIToken`). Failures
/// are `AppStoreServerAPIError`s with a stable code; the retry rules are `RetryPolicy`'s. A cancelled task stops
/// waiting and throws `CancellationError`.
public struct AppStoreServerAPIClient: Sendable {
    public let configuration: Configuration
    /// The bearer tokens this client signs (cached, renewed before expiry).
    public let token: AppStoreServerAPIToken
    private let transport: any AppStoreHTTPTransport

    /// - Throws: `invalid_configuration` when the token settings cannot work (see `AppStoreServerAPIToken`).
    public init(configuration: Configuration, transport: any AppStoreHTTPTransport) throws(AppStoreServerAPIError) {
        self.configuration = configuration
        self.transport = transport
        self.token = try AppStoreServerAPIToken(
            issuerID: configuration.issuerID, keyID: configuration.keyID, bundleID: configuration.bundleID,
            privateKey: configuration.privateKey, lifetime: configuration.tokenLifetime, now: configuration.now)
    }

    /// The same key and transport acting for another app of the team: tokens carry `bundleID` as their `bid`.
    public func acting(forBundle bundleID: String) throws(AppStoreServerAPIError) -> AppStoreServerAPIClient {
        var configuration = configuration
        configuration.bundleID = bundleID
        return try AppStoreServerAPIClient(configuration: configuration, transport: transport)
    }

    /// Sends one call, retrying as the policy allows; returns the 2xx answer.
    func perform(_ method: String, path: [String], query: [URLQueryItem] = [], body: Data? = nil) async throws
        -> AppStoreHTTPResponse
    {
        let url = try url(path: path, query: query)
        let policy = configuration.retryPolicy
        var attempt = 1
        while true {
            let bearer = try await token.current()
            var headers = ["Authorization": "Bearer \(bearer)", "Accept": "application/json", "User-Agent": "purser"]
            if body != nil { headers["Content-Type"] = "application/json" }
            let request = AppStoreHTTPRequest(
                method: method, url: url, headers: headers, body: body,
                timeout: configuration.timeout, attempt: attempt)
            let delay: Duration
            do {
                let response = try await transport.send(request)
                switch try Self.next(after: response, attempt: attempt, policy: policy) {
                case .done: return response
                case .retry(let wait): delay = wait
                }
            } catch let error as AppStoreServerAPIError {
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                guard attempt < policy.maximumAttempts else {
                    throw AppStoreServerAPIError(
                        .serverUnavailable, "no answer from the App Store Server API after \(attempt) attempts",
                        cause: error)
                }
                delay = policy.backoff(afterAttempt: attempt)
            }
            try await configuration.sleep(delay)
            attempt += 1
        }
    }

    enum Next: Equatable {
        case done
        case retry(after: Duration)
    }

    /// What to do after an answer: accept it, wait and retry, or throw.
    static func next(after response: AppStoreHTTPResponse, attempt: Int, policy: RetryPolicy)
        throws(AppStoreServerAPIError) -> Next
    {
        let status = response.status
        let canRetry = attempt < policy.maximumAttempts
        switch status {
        case 200..<300:
            return .done
        case 401:
            throw AppStoreServerAPIError(
                .unauthorized, "the App Store Server API refused the bearer token",
                httpStatus: status)
        case 429:
            let retryAfter = retryAfter(in: response)
            var error = apiError(in: response, default: .rateLimitExceeded)
            error.retryAfter = retryAfter
            guard canRetry, retryAfter.map({ $0 <= policy.maximumRetryAfter }) ?? true else { throw error }
            return .retry(after: retryAfter ?? policy.backoff(afterAttempt: attempt))
        case 500...:
            guard canRetry else {
                let apple = apiError(in: response, default: .serverUnavailable)
                throw AppStoreServerAPIError(
                    .serverUnavailable, "the App Store Server API answered HTTP \(status) \(attempt) times",
                    httpStatus: status, apiErrorCode: apple.apiErrorCode)
            }
            return .retry(after: policy.backoff(afterAttempt: attempt))
        default:
            let error = apiError(in: response, default: .unexpectedResponse)
            guard error.code.isRetryable, canRetry else { throw error }
            return .retry(after: policy.backoff(afterAttempt: attempt))
        }
    }

    /// Apple's `{"errorCode", "errorMessage"}` as an error; `fallback` when the body is not that.
    static func apiError(in response: AppStoreHTTPResponse, default fallback: AppStoreServerAPIError.Code)
        -> AppStoreServerAPIError
    {
        guard let body = try? JSONDecoder().decode(AppStoreServerAPI.ErrorResponse.self, from: response.body) else {
            return AppStoreServerAPIError(
                fallback, "HTTP \(response.status) without an App Store error body",
                httpStatus: response.status)
        }
        let code = AppStoreServerAPIError.Code(apiErrorCode: body.errorCode) ?? .apiError
        return AppStoreServerAPIError(
            code, body.errorMessage ?? "App Store error \(body.errorCode)",
            httpStatus: response.status, apiErrorCode: body.errorCode)
    }

    /// `Retry-After` in seconds (fractions allowed); `nil` when absent or not a number of seconds.
    static func retryAfter(in response: AppStoreHTTPResponse) -> Duration? {
        guard let value = response.headers.first(where: { $0.key.lowercased() == "retry-after" })?.value,
            let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0
        else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// The base URL with Apple's path (each segment percent-encoded) and the query appended.
    func url(path: [String], query: [URLQueryItem]) throws(AppStoreServerAPIError) -> URL {
        var text = configuration.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path.map { "/" + Self.percentEncoded($0) }.joined()
        if !query.isEmpty {
            text +=
                "?"
                + query.map { "\(Self.percentEncoded($0.name))=\(Self.percentEncoded($0.value ?? ""))" }
                .joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw AppStoreServerAPIError(.invalidConfiguration, "cannot make a URL from the base URL and the path")
        }
        return url
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Decodes a 2xx body.
    func decode<T: Decodable>(_ type: T.Type, from response: AppStoreHTTPResponse) throws(AppStoreServerAPIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw AppStoreServerAPIError(
                .unexpectedResponse, "the App Store Server API's answer does not decode",
                httpStatus: response.status, cause: error)
        }
    }
}
