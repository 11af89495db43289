import AppStoreSimulator
import Foundation

/// StoreKit 2's product, for the members Purser's adapter uses.
public struct Product: Sendable, Identifiable {
    public let id: String
    public let displayName: String
    public let displayPrice: String
    let process: SimulatedProcess

    public static func products(for identifiers: some Collection<String>) async throws -> [Product] {
        guard let process = SimulatedProcess.current else { throw StoreKitError.unknown }
        return process.device.products(identifiers).map { product in
            Product(
                id: product.id, displayName: product.displayName, displayPrice: product.displayPrice, process: process)
        }
    }

    public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        var token: UUID?
        var quantity = 1
        for option in options {
            switch option.kind {
            case .appAccountToken(let value): token = value
            case .quantity(let value): quantity = value
            }
        }
        switch await process.device.purchase(process, productID: id, quantity: quantity, appAccountToken: token) {
        case .purchased(let entry): return .success(.verified(Transaction(entry, process: process)))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        case .failed(.productUnavailable): throw PurchaseError.productUnavailable
        case .failed(.notAllowed): throw PurchaseError.purchaseNotAllowed
        case .failed(.network): throw StoreKitError.networkError(URLError(.notConnectedToInternet))
        case .failed(.cancelled): return .userCancelled
        case .failed(.unknown): throw StoreKitError.unknown
        }
    }

    public struct PurchaseOption: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case appAccountToken(UUID)
            case quantity(Int)
        }

        let kind: Kind

        public static func appAccountToken(_ token: UUID) -> PurchaseOption {
            PurchaseOption(kind: .appAccountToken(token))
        }
        public static func quantity(_ quantity: Int) -> PurchaseOption { PurchaseOption(kind: .quantity(quantity)) }
    }

    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        case pending
    }

    public enum PurchaseError: Error, Sendable {
        case invalidQuantity, productUnavailable, purchaseNotAllowed
    }
}

/// StoreKit 2's general error.
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
}
