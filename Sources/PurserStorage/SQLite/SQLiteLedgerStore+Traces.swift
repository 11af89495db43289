import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func recordTrace(_ traceParent: String, ofTransaction transactionID: String, now: Date) async throws {
        try await write { database in
            try database.query(
                TraceLinkSQL.insert, [.text(transactionID), .text(traceParent), .integer(Int(now.millis))])
        }
    }

    public func trace(ofTransaction transactionID: String) async throws -> String? {
        try await read(TraceLinkSQL.select, [.text(transactionID)]).first.map { try $0.text("trace_parent") }
    }
}
