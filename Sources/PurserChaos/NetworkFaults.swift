import AppStoreVerification
import HTTPTypes
import Hummingbird
import PurserServer
import Synchronization

/// The network between each simulated device and the server: faults armed per device for its next submissions.
/// Apps name their device in the `X-Chaos-Device` header, so a fault hits the device it was planned for, whatever
/// the other devices do at the same time.
public final class NetworkFaults: Sendable {
    public enum Fault: Sendable, Hashable {
        /// The request never reaches the server.
        case requestLost
        /// The server acts; its answer is lost on the way back.
        case responseLost
    }

    public static let deviceHeader = HTTPField.Name("X-Chaos-Device")!
    private let armed = Mutex<[String: [Fault]]>([:])
    private let enabled = Mutex(true)

    public init() {}

    /// Faults for `device`'s next submissions, in order.
    public func arm(_ faults: [Fault], for device: String) {
        guard !faults.isEmpty else { return }
        armed.withLock { $0[device, default: []].append(contentsOf: faults) }
    }

    /// Drops whatever is still armed for `device`.
    public func disarm(_ device: String) { _ = armed.withLock { $0.removeValue(forKey: device) } }

    /// Stops every fault (the heal phase).
    public func stop() {
        enabled.withLock { $0 = false }
        armed.withLock { $0 = [:] }
    }

    func next(for device: String) -> Fault? {
        guard enabled.withLock({ $0 }) else { return nil }
        return armed.withLock { armed in
            guard var queue = armed[device], !queue.isEmpty else { return nil }
            let fault = queue.removeFirst()
            armed[device] = queue.isEmpty ? nil : queue
            return fault
        }
    }

    /// The middleware that applies the faults to `POST /v1/transactions`.
    var middleware: Middleware { Middleware(faults: self) }

    struct Middleware: RouterMiddleware {
        typealias Context = PurserRequestContext
        let faults: NetworkFaults

        func handle(
            _ request: Request, context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard request.method == .post, request.uri.path == "/v1/transactions",
                let device = request.headers[NetworkFaults.deviceHeader], let fault = faults.next(for: device)
            else { return try await next(request, context) }
            switch fault {
            case .requestLost:
                return Response(status: .serviceUnavailable)
            case .responseLost:
                _ = try? await next(request, context)
                return Response(status: .serviceUnavailable)
            }
        }
    }
}
