extension Product {
    /// Why `purchase(options:)` could not start a purchase: every case Apple defines.
    public enum PurchaseError: Error, Sendable, Hashable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }
}
