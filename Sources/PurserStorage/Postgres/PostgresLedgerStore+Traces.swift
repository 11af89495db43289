import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func trace(ofTransaction transactionID: String) async throws -> String? {
        try await withConnection { connection in
            try await self.rows(
                connection, "SELECT trace_parent FROM trace_links WHERE transaction_id = \(transactionID)"
            ).first.map { try $0.makeRandomAccess().text("trace_parent") }
        }
    }
}
