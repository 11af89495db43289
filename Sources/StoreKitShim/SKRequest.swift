import AppStoreSimulator
import Foundation

public protocol SKRequestDelegate: AnyObject {
    func requestDidFinish(_ request: SKRequest)
    func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
    public func requestDidFinish(_ request: SKRequest) {}
    public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}

/// A StoreKit 1 request: `start()` runs it on the device; the delegate hears the result.
open class SKRequest: NSObject, @unchecked Sendable {
    open weak var delegate: (any SKRequestDelegate)?
    let process: SimulatedProcess?

    override public init() {
        process = SimulatedProcess.current
        super.init()
    }

    open func start() {
        Task { await run() }
    }

    func run() async {}
}

/// Fetches the app receipt from the App Store (it is missing after a reinstall until then).
open class SKReceiptRefreshRequest: SKRequest, @unchecked Sendable {
    public init(receiptProperties: [String: Any]? = nil) {
        super.init()
    }

    override func run() async {
        guard let process else { return delegate?.request(self, didFailWithError: SKError(.clientInvalid)) ?? () }
        do {
            try await process.device.refreshReceipt(process)
            delegate?.requestDidFinish(self)
        } catch {
            delegate?.request(self, didFailWithError: error)
        }
    }
}

public protocol SKProductsRequestDelegate: SKRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

/// Looks up products by identifier.
open class SKProductsRequest: SKRequest, @unchecked Sendable {
    let identifiers: Set<String>

    public init(productIdentifiers: Set<String>) {
        identifiers = productIdentifiers
        super.init()
    }

    override func run() async {
        guard let process else { return delegate?.request(self, didFailWithError: SKError(.clientInvalid)) ?? () }
        let found = process.device.products(identifiers)
        let response = SKProductsResponse(
            products: found.map(SKProduct.init),
            invalidProductIdentifiers: identifiers.subtracting(found.map(\.id)).sorted())
        (delegate as? any SKProductsRequestDelegate)?.productsRequest(self, didReceive: response)
        delegate?.requestDidFinish(self)
    }
}

open class SKProductsResponse: NSObject, @unchecked Sendable {
    public let products: [SKProduct]
    public let invalidProductIdentifiers: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}

open class SKProduct: NSObject, @unchecked Sendable {
    public let productIdentifier: String
    public let localizedTitle: String
    public let price: NSDecimalNumber
    public let priceLocale: Locale

    init(_ product: DeviceProduct) {
        productIdentifier = product.id
        localizedTitle = product.displayName
        price = NSDecimalNumber(decimal: product.price)
        priceLocale = Locale(identifier: "en_US")
    }
}
