import AppStoreVerification
import Metrics
import PurserCore

extension SubmissionService {
    /// The Apple account's `appTransactionId` vouched for by a StoreKit 1 submission's signed app transaction, or
    /// nil. Apple's signature is checked as a transaction's is, then the claims, then that it is for the receipt's
    /// bundle and environment. One that fails is ignored (counted in `purser_verification_failures_total` by its
    /// code): the id is an annotation for support, and never stands between a purchase and its credit.
    func appTransactionID(
        from jws: String?, bundleID: String, environment: AppStoreEnvironment
    ) async -> String? {
        guard let jws, !jws.isEmpty else { return nil }
        do throws(VerificationError) {
            let appTransaction = try await verifier.verifySignature(jws, as: JWSAppTransaction.self)
            try claims.check(appTransaction)
            guard appTransaction.bundleId == bundleID else {
                throw VerificationError(.wrongBundle, "the app transaction is for another bundle than the receipt")
            }
            guard appTransaction.receiptType == environment.rawValue else {
                throw VerificationError(.wrongEnvironment, "the app transaction is from another environment")
            }
            return appTransaction.appTransactionId.flatMap { $0.isEmpty ? nil : $0 }
        } catch {
            Counter(label: PurserMetrics.Name.verificationFailures, dimensions: [("code", error.code.description)])
                .increment()
            return nil
        }
    }
}
