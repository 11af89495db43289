import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP connection to `127.0.0.1:port` that the test keeps open between HTTP/1.1 requests (keep-alive), as a load
/// balancer's health checker or a proxy does, with blocking POSIX sockets run off Swift's cooperative threads.
final class HTTPConnection: @unchecked Sendable {
    /// The server refused the connection (nothing listens on the port) or closed it.
    struct Closed: Error {}

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Connects; throws `Closed` when the connection is refused.
    static func open(port: Int) async throws -> HTTPConnection {
        try await offloaded {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Closed() }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(descriptor)
                throw Closed()
            }
            return HTTPConnection(descriptor: descriptor)
        }
    }

    /// Sends `text` as it is.
    func write(_ text: String) async throws {
        try await Self.offloaded {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    send(self.descriptor, $0.baseAddress, $0.count, Self.noSignal)
                }
                guard count > 0 else { throw Closed() }
                sent += count
            }
        }
    }

    /// `GET path` on this connection: the status and the body.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        try await write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return try await response()
    }

    /// Reads one response (with a `Content-Length` body): its status and body; throws `Closed` if the server closed
    /// the connection first.
    func response() async throws -> (status: Int, body: String) {
        try await Self.offloaded {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let separator = Array("\r\n\r\n".utf8)
            while true {
                if let end = received.indices.first(where: { received[$0...].starts(with: separator) }) {
                    let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                    let length = head.firstMatch(of: /content-length: *(\d+)/).flatMap { Int($0.1) } ?? 0
                    let body = received[(end + separator.count)...]
                    if body.count >= length {
                        let status = head.firstMatch(of: /^http\/1\.1 (\d+)/).flatMap { Int($0.1) } ?? 0
                        return (status, String(decoding: body.prefix(length), as: UTF8.self))
                    }
                }
                let count = recv(self.descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { throw Closed() }
                received += buffer[..<count]
            }
        }
    }

    /// A write to a connection the server closed fails instead of raising SIGPIPE, which would end the test run.
    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0
    #endif

    func disconnect() {
        close(descriptor)
    }

    /// Runs blocking socket calls on a thread of their own.
    private static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
