import AppStoreSimulator
import AppStoreVerification
import Foundation

/// StoreKit 2's app transaction (iOS 16+): the App Store's signed record of the app's download by this Apple account,
/// for the members Purser's adapters use. `appTransactionID` is back-deployed to iOS 16 by Apple.
public struct AppTransaction: Sendable, Hashable {
    public let appTransactionID: String
    public let bundleID: String
    let jws: String

    /// The app transaction from StoreKit's cache, or the App Store on first use: an offline device that never
    /// fetched it throws `StoreKitError.networkError`, as a real one does.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            guard let process = SimulatedProcess.current else { throw StoreKitError.unknown }
            let signed: String
            do {
                signed = try await process.device.appTransaction(process)
            } catch .network {
                throw StoreKitError.networkError(URLError(.notConnectedToInternet))
            } catch {
                throw StoreKitError.unknown
            }
            let segments = signed.split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count == 3, let payload = Base64URL.decode(segments[1].utf8),
                let decoded = try? JSONDecoder().decode(JWSAppTransaction.self, from: payload)
            else { throw VerificationResult<AppTransaction>.VerificationError.invalidEncoding }
            return .verified(
                AppTransaction(
                    appTransactionID: decoded.appTransactionId ?? "", bundleID: decoded.bundleId ?? "", jws: signed))
        }
    }
}

extension VerificationResult where SignedType == AppTransaction {
    /// The signed app transaction as Apple issued it.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}
