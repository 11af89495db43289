import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func trace(ofTransaction transactionID: String) async throws -> String? {
        try await read(TraceLinkSQL.select, [.text(transactionID)]).first.map { try $0.text("trace_parent") }
    }
}
