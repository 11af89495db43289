import AppStoreVerification
import Crypto
import Foundation
import PurserCore

// StoreKit's `AppTransaction`: the App Store's signed record of the app's download by the account on a device.
extension SimulatedAppStore {
    /// The signed app transaction of the app `bundleID` (default: the configured one) downloaded on `deviceId`, as
    /// `AppTransaction.shared` hands it to the app: signed now by the same chain as transactions, with the
    /// `appTransactionId` every purchase on that device carries and, in production, the app's Apple id.
    public func appTransaction(
        deviceId: String, bundleID: String? = nil, environment: AppStoreEnvironment? = nil
    ) throws(SimulatorError) -> (appTransaction: JWSAppTransaction, signed: String) {
        let bundle = bundleID ?? configuration.defaultBundleID
        let environment = environment ?? configuration.defaultEnvironment
        let at = now().appStoreMilliseconds
        var payload = JWSAppTransaction(
            bundleId: bundle, receiptType: environment.rawValue,
            appTransactionId: Self.appTransactionID(deviceId: deviceId, bundleId: bundle))
        payload.appAppleId = environment == .production ? configuration.appAppleID : nil
        payload.applicationVersion = "1.0"
        payload.originalApplicationVersion = "1.0"
        payload.receiptCreationDate = at
        payload.signedDate = at
        let firstPurchase = purchases(deviceId: deviceId).first?.purchase.transaction
        payload.originalPurchaseDate = firstPurchase?.originalPurchaseDate ?? at
        payload.originalPlatform = "iOS"
        let nonce = UUID().uuidString.lowercased()
        payload.deviceVerificationNonce = nonce
        payload.deviceVerification = Data(SHA384.hash(data: Data((nonce + deviceId).utf8))).base64EncodedString()
        return (payload, try sign(payload))
    }
}
