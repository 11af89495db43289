import AppStoreVerification
import Foundation

/// Writes an app receipt's payload as Apple lays it out: a SET of `ReceiptAttribute ::= SEQUENCE { type INTEGER,
/// version INTEGER, value OCTET STRING }`, strings as UTF8String (identifiers) or IA5String (RFC 3339 dates) inside
/// the OCTET STRING, in-app purchases as attribute 17 holding a nested SET of the same shape.
public enum AppReceiptEncoder {
    public static func payload(_ receipt: AppReceipt) -> [UInt8] {
        DERWriter.build { set in
            set.constructed(0x31) { attributes in
                if let environment = receipt.environment {
                    attribute(&attributes, AppReceipt.Field.environment) { $0.utf8String(environment) }
                }
                attribute(&attributes, AppReceipt.Field.bundleId) { $0.utf8String(receipt.bundleId) }
                if let version = receipt.applicationVersion {
                    attribute(&attributes, AppReceipt.Field.applicationVersion) { $0.utf8String(version) }
                }
                attribute(&attributes, AppReceipt.Field.opaqueValue) { $0.bytes(Array(repeating: 0xA5, count: 8)) }
                attribute(&attributes, AppReceipt.Field.sha1Hash) { $0.bytes(Array(repeating: 0x5A, count: 20)) }
                if let date = receipt.creationDate {
                    attribute(&attributes, AppReceipt.Field.creationDate) { $0.ia5String(rfc3339(date)) }
                }
                for purchase in receipt.inAppPurchases {
                    attribute(&attributes, AppReceipt.Field.inAppPurchase) { $0.bytes(inApp(purchase)) }
                }
                if let version = receipt.originalApplicationVersion {
                    attribute(&attributes, AppReceipt.Field.originalApplicationVersion) { $0.utf8String(version) }
                }
                if let date = receipt.expirationDate {
                    attribute(&attributes, AppReceipt.Field.expirationDate) { $0.ia5String(rfc3339(date)) }
                }
            }
        }
    }

    static func inApp(_ purchase: InAppPurchaseReceipt) -> [UInt8] {
        typealias F = InAppPurchaseReceipt.Field
        return DERWriter.build { set in
            set.constructed(0x31) { a in
                attribute(&a, F.quantity) { $0.integer(Int64(purchase.quantity)) }
                attribute(&a, F.productId) { $0.utf8String(purchase.productId) }
                attribute(&a, F.transactionId) { $0.utf8String(purchase.transactionId) }
                attribute(&a, F.purchaseDate) { $0.ia5String(purchase.purchaseDate.map(rfc3339) ?? "") }
                attribute(&a, F.originalTransactionId) {
                    $0.utf8String(purchase.originalTransactionId ?? purchase.transactionId)
                }
                attribute(&a, F.originalPurchaseDate) { $0.ia5String(purchase.originalPurchaseDate.map(rfc3339) ?? "") }
                // Apple writes these for every purchase, empty when they do not apply.
                attribute(&a, F.expiresDate) { $0.ia5String(purchase.expiresDate.map(rfc3339) ?? "") }
                attribute(&a, F.webOrderLineItemId) { $0.integer(purchase.webOrderLineItemId ?? 0) }
                attribute(&a, F.cancellationDate) { $0.ia5String(purchase.cancellationDate.map(rfc3339) ?? "") }
                if let trial = purchase.isTrialPeriod { attribute(&a, F.isTrialPeriod) { $0.integer(trial ? 1 : 0) } }
                if let intro = purchase.isInIntroOfferPeriod {
                    attribute(&a, F.isInIntroOfferPeriod) { $0.integer(intro ? 1 : 0) }
                }
                if let offer = purchase.promotionalOfferId {
                    attribute(&a, F.promotionalOfferId) { $0.utf8String(offer) }
                }
            }
        }
    }

    /// The value written inside an attribute's OCTET STRING.
    struct Value {
        fileprivate var writer = DERWriter()
        mutating func utf8String(_ value: String) { writer.utf8String(value) }
        mutating func ia5String(_ value: String) { writer.ia5String(value) }
        mutating func integer(_ value: Int64) { writer.integer(value) }
        /// Raw bytes, not wrapped in a further TLV.
        mutating func bytes(_ raw: [UInt8]) { rawBytes = raw }
        fileprivate var rawBytes: [UInt8]?
    }

    private static func attribute(_ writer: inout DERWriter, _ type: Int, _ build: (inout Value) -> Void) {
        var value = Value()
        build(&value)
        writer.constructed(0x30) { sequence in
            sequence.integer(Int64(type))
            sequence.integer(1)
            sequence.octetString(value.rawBytes ?? value.writer.bytes)
        }
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
