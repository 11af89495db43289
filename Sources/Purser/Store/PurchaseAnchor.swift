#if canImport(UIKit) && !os(watchOS)
    import UIKit
#elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
    import AppKit
#endif

/// Where StoreKit shows the payment sheet: the scene (UIKit: iOS, iPadOS, tvOS, Mac Catalyst, visionOS) or the window
/// (AppKit: macOS) the user tapped Buy in, for StoreKit 2's `Product.purchase(confirmIn:options:)`. On iPad with
/// several windows the app knows which one that is; StoreKit does not. watchOS has no such thing, and neither has a
/// platform without StoreKit: there an anchor cannot be made, and `buy` without one is the only call.
public struct PurchaseAnchor: Sendable {
    #if canImport(UIKit) && !os(watchOS)
        /// The scene to show the sheet in (main-actor isolated, so `Sendable`).
        public let scene: UIScene

        /// An anchor in `scene`, the one the user tapped Buy in.
        public init(_ scene: UIScene) { self.scene = scene }
    #elseif canImport(AppKit) && !targetEnvironment(macCatalyst)
        /// The window to show the sheet in (main-actor isolated, so `Sendable`).
        public let window: NSWindow

        /// An anchor on `window`, the one the user tapped Buy in.
        public init(_ window: NSWindow) { self.window = window }
    #endif
}
