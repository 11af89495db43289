#if (canImport(UIKit) && !os(watchOS)) || canImport(AppKit) || canImport(WatchKit)
    import Foundation
    #if canImport(UIKit) && !os(watchOS)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #else
        import WatchKit
    #endif

    /// `foreground` whenever the app returns to the foreground: UIKit's `willEnterForegroundNotification` (posted for
    /// the app as a whole, with or without scenes), AppKit's `willBecomeActiveNotification`, WatchKit's
    /// `willEnterForegroundNotification`.
    enum ForegroundSignal {
        /// Starts watching; returns what stops it.
        static func start(_ emit: @escaping @Sendable (RecoveryTrigger) -> Void) -> @Sendable () -> Void {
            let registration = ObserverRegistration()
            Task {
                let name = await MainActor.run { notificationName }
                registration.observe(name) { emit(.foreground) }
            }
            return { registration.stop() }
        }

        /// Read on the main actor: WatchKit isolates its application class there.
        @MainActor
        private static var notificationName: Notification.Name {
            #if canImport(UIKit) && !os(watchOS)
                UIApplication.willEnterForegroundNotification
            #elseif canImport(AppKit)
                NSApplication.willBecomeActiveNotification
            #else
                WKApplication.willEnterForegroundNotification
            #endif
        }
    }

    /// One `NotificationCenter` observer, removable before or after it was added.
    private final class ObserverRegistration: @unchecked Sendable {
        // @unchecked: `token` and `stopped` are only touched under `lock`.
        private let lock = NSLock()
        private var token: (any NSObjectProtocol)?
        private var stopped = false

        func observe(_ name: Notification.Name, _ action: @escaping @Sendable () -> Void) {
            lock.withLock {
                guard !stopped else { return }
                token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in
                    action()
                }
            }
        }

        func stop() {
            let token = lock.withLock {
                stopped = true
                defer { self.token = nil }
                return self.token
            }
            if let token { NotificationCenter.default.removeObserver(token) }
        }
    }
#endif
