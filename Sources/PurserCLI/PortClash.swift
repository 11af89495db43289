import Foundation
import NIOCore
import PurserServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns "Address already in use" at start into a configuration error that names the port and the key that set
/// it (NIO's message names neither): each configured listener's port is tried again, and the taken ones are named.
enum PortClash {
    /// `error` as the configuration error it is, when it is a bind that found its address in use; else `nil`.
    static func configurationError(for error: any Error, settings: ServerConfiguration) -> ConfigurationError? {
        guard let io = error as? IOError, io.errnoCode == EADDRINUSE else { return nil }
        var listeners = [(settings.port, "`port` (--port)")]
        if let metrics = settings.metrics.port { listeners.append((metrics, "`metrics.port`")) }
        let taken = listeners.filter { port, _ in port != 0 && isTaken(host: settings.host, port: port) }
        let named = (taken.isEmpty ? listeners : taken).map { "\(settings.host):\($0.0), set by \($0.1)" }
        return ConfigurationError(
            "another process already listens on \(named.joined(separator: " or ")); stop it or choose a free port")
    }

    /// Whether binding `host:port` (IPv4, with `SO_REUSEADDR` as NIO binds) fails with "address in use" now.
    static func isTaken(host: String, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound != 0 && errno == EADDRINUSE
    }
}
