import Foundation

extension RecoverySignals {
    /// The device's own signals: on Apple platforms the network path coming back (`NWPathMonitor`) and the app
    /// returning to the foreground (UIKit's, AppKit's or WatchKit's notification); elsewhere none.
    public static let system = RecoverySignals {
        let (stream, continuation) = AsyncStream.makeStream(of: RecoveryTrigger.self)
        var stops: [@Sendable () -> Void] = []
        #if canImport(Network)
            stops.append(NetworkPathSignal.start { continuation.yield($0) })
        #endif
        #if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit) || canImport(WatchKit)
            stops.append(ForegroundSignal.start { continuation.yield($0) })
        #endif
        if stops.isEmpty { continuation.finish() }
        let stopAll = stops
        continuation.onTermination = { _ in
            for stop in stopAll { stop() }
        }
        return stream
    }
}
