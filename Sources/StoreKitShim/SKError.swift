import Foundation

/// The domain of StoreKit 1's errors (Apple's name).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let SKErrorDomain = "SKErrorDomain"

/// StoreKit 1's error, with every code Apple defines. Apple's is an `NSError` bridge, so `userInfo` carries the cause
/// (an offline device reports `unknown` with an `NSURLErrorDomain` error under `NSUnderlyingErrorKey`).
public struct SKError: CustomNSError, Hashable, @unchecked Sendable {
    // @unchecked: `userInfo` holds only immutable Foundation values (strings, NSError), as an NSError's does.

    /// Apple's codes and raw values.
    public enum Code: Int, Sendable, Hashable {
        case unknown = 0
        case clientInvalid = 1
        case paymentCancelled = 2
        case paymentInvalid = 3
        case paymentNotAllowed = 4
        case storeProductNotAvailable = 5
        case cloudServicePermissionDenied = 6
        case cloudServiceNetworkConnectionFailed = 7
        case cloudServiceRevoked = 8
        case privacyAcknowledgementRequired = 9
        case unauthorizedRequestData = 10
        case invalidOfferIdentifier = 11
        case invalidSignature = 12
        case missingOfferParams = 13
        case invalidOfferPrice = 14
        case overlayCancelled = 15
        case overlayInvalidConfiguration = 16
        case overlayTimeout = 17
        case ineligibleForOffer = 18
        case unsupportedPlatform = 19
        case overlayPresentedInBackgroundScene = 20
    }

    public let code: Code
    public let userInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { SKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }

    public static func == (lhs: SKError, rhs: SKError) -> Bool {
        lhs.code == rhs.code && NSDictionary(dictionary: lhs.userInfo).isEqual(to: rhs.userInfo)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
