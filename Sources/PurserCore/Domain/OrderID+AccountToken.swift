import Foundation

extension OrderID {
    /// The `appAccountToken` Purser writes to Apple's record of a transaction an operator credited to `user` without
    /// an order: a UUID derived from the account id alone (two FNV-1a hashes, RFC 9562 version 8, the variant bits
    /// set), so every such grant to one account names it with the same token, and it never equals an order's
    /// random (version 4) id. It names no order, so the owner rule never binds a transaction by it.
    public static func accountToken(for user: UserID) -> OrderID {
        let bytes = Array("purser-account:\(user.rawValue)".utf8)
        var high: UInt64 = 0xcbf2_9ce4_8422_2325
        var low: UInt64 = 0x84222325_cbf29ce4
        for byte in bytes {
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            low = (low << 7) | (low >> 57)
        }
        var raw = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            raw[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            raw[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        raw[6] = (raw[6] & 0x0F) | 0x80
        raw[8] = (raw[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11],
                raw[12], raw[13], raw[14], raw[15]
            ))
        return OrderID(uuid)
    }
}
