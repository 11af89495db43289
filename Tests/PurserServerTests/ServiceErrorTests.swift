import AppStoreVerification
import Hummingbird
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// The one mapping from a service's failure to HTTP: every code's wire spelling and status.
@Suite struct ServiceErrorTests {
    @Test(arguments: [
        (ServiceError.Code.invalidOrderID, "invalid_order_id", HTTPResponse.Status.badRequest),
        (.missingTransaction, "missing_transaction", .badRequest),
        (.malformedReceipt, "malformed_receipt", .badRequest),
        (.invalidQuantity, "invalid_quantity", .badRequest),
        (.invalidReason, "invalid_reason", .badRequest),
        (.reasonRequired, "reason_required", .badRequest),
        (.receiptRejected, "receipt_rejected", .unprocessableContent),
        (.unknownProduct, "unknown_product", .unprocessableContent),
        (.notFound, "not_found", .notFound),
        (.orderDelivered, "order_delivered", .conflict),
        (.appleAnswerUnverified, "apple_answer_unverified", .badGateway),
        (.appStoreAPINotConfigured, "app_store_api_not_configured", .serviceUnavailable),
        (.invalidStatus, "invalid_status", .badRequest),
        (.invalidLimit, "invalid_limit", .badRequest),
        (.invalidEventID, "invalid_event_id", .badRequest),
        (.webhooksNotConfigured, "webhooks_not_configured", .conflict),
        (.unverified(.malformed), "malformed", .badRequest),
        (.unverified(.badSignature), "bad_signature", .unprocessableContent),
        (.unverified(.untrustedChain), "untrusted_chain", .unprocessableContent),
        (.rejected(.unknownProduct("x")), "unknown_product", .unprocessableContent),
        (.rejected(.wrongEnvironment("Sandbox")), "wrong_environment", .unprocessableContent),
    ])
    func mapsEachCodeToItsStatus(code: ServiceError.Code, wire: String, status: HTTPResponse.Status) {
        #expect(code.description == wire)
        #expect(code.status == status)
        let answer = APIError(ServiceError(code, "message"))
        #expect(answer.code == wire)
        #expect(answer.status == status)
        #expect(answer.message == "message")
    }

    @Test func errorsCompareByCodeAndKeepTheirCauseOutOfTheMessage() {
        let cause = VerificationError(.badSignature, "the signature does not match")
        let error = ServiceError(unverified: cause)
        #expect(error == ServiceError(.unverified(.badSignature), "another message"))
        #expect(error != ServiceError(.unverified(.expired), "the signature does not match"))
        #expect(error.description == "bad_signature: the signature does not match")
        #expect(error.debugDescription.contains("cause"))
    }

    @Test func anUnavailableLedgerIsA503ThatInvitesARetryAndADefectIsA500ThatRevealsNothing() throws {
        let outage = APIError(StorageError(.unavailable, "connection refused to db.internal:5432"))
        #expect(outage.status == .serviceUnavailable)
        #expect(outage.code == "storage_unavailable")
        #expect(!outage.message.contains("db.internal"))
        let defect = APIError(StorageError(.corrupt, "a row does not decode: SELECT * FROM grants"))
        #expect(defect.status == .internalServerError)
        #expect(defect.code == "internal")
        #expect(!defect.message.contains("SELECT"))
    }
}
