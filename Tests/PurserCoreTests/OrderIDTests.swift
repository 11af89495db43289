import Foundation
import PurserCore
import Testing

/// Order ids made by the server are UUIDs of version 7 (RFC 9562): the time first, so ids made later sort later and
/// the ledger's indexes on them grow at one end, and 74 random bits, so two orders of one millisecond differ.
@Suite struct OrderIDTests {
    static func bytes(_ id: OrderID) -> [UInt8] { withUnsafeBytes(of: id.uuid.uuid) { Array($0) } }

    @Test func aTimeOrderedIdCarriesItsMillisecondVersionAndVariant() throws {
        let date = Date(timeIntervalSince1970: 1_796_600_004.123_9)
        let id = OrderID.timeOrdered(at: date)
        let bytes = Self.bytes(id)
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(millis == 1_796_600_004_124, "the millisecond as the ledger stores it (Date.millis rounds)")
        #expect(bytes[6] >> 4 == 7, "version 7: \(id)")
        #expect(bytes[8] >> 6 == 0b10, "RFC 9562's variant: \(id)")
        #expect(OrderID(id.description) == id, "it parses back as any UUID does")
        #expect(id.description == id.description.lowercased())
    }

    @Test func laterIdsSortLaterAndOneMillisecondsIdsDiffer() {
        let start = Date(timeIntervalSince1970: 1_796_600_000)
        let ids = (0..<1000).map { OrderID.timeOrdered(at: start + Double($0 / 10) / 1000) }
        for (earlier, later) in zip(ids, ids.dropFirst()) where earlier != later {
            let sameMillisecond = Self.bytes(earlier)[0..<6] == Self.bytes(later)[0..<6]
            #expect(sameMillisecond || earlier.description < later.description, "\(earlier) after \(later)")
        }
        #expect(Set(ids).count == 1000, "ten ids in each millisecond, all different")
        let randomBits = Set(ids.map { Self.bytes($0)[10...] })
        #expect(randomBits.count == 1000)
    }
}
