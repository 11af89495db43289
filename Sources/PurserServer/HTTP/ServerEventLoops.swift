import Hummingbird
import NIOPosix
import Synchronization

/// The event loops that serve HTTP (`http.threads`): SwiftNIO's shared group, one thread per core, unless a count
/// is set; then one group of that many threads per count, made once and kept for the life of the process, as the
/// shared group is (a bench that serves again with the same count reuses it).
enum ServerEventLoops {
    private static let groups = Mutex<[Int: MultiThreadedEventLoopGroup]>([:])

    /// Hummingbird's provider for `threads` event-loop threads; 0 is the shared group.
    static func provider(threads: Int) -> EventLoopGroupProvider {
        guard threads > 0 else { return .singleton }
        let group = groups.withLock { groups in
            if let group = groups[threads] { return group }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
            groups[threads] = group
            return group
        }
        return .shared(group)
    }
}
