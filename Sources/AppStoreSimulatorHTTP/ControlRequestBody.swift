import AppStoreSimulator
import Foundation
import Hummingbird

/// JSON bodies of the simulator's control API, refused with `invalid_request` when they do not decode.
enum ControlRequestBody {
    static let limit = 64 * 1024

    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        try decode(type, from: try await request.body.collect(upTo: limit))
    }

    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch {
            throw SimulatorError(.invalidRequest, "the body is not valid JSON for this request: \(error)")
        }
    }
}
