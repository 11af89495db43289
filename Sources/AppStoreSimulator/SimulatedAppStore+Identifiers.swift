import Foundation

extension SimulatedAppStore {
    /// A 10-character order id like Apple's ("MK5TTTVWJH"), derived from the purchase's sequence number.
    static func appleOrderID(sequence: Int) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var value = UInt64(sequence) &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678
        return String(
            (0..<10).map { _ in
                defer { value /= UInt64(alphabet.count) }
                return alphabet[Int(value % UInt64(alphabet.count))]
            })
    }

    /// The `appTransactionId` of the app's download on `deviceId` (the simulator's stand-in for one Apple account):
    /// the same on every purchase made there, across restarts of the simulator, and different for each device and
    /// bundle. Like Apple's, a string of digits: "7" and fifteen more from a 64-bit FNV-1a hash of the two.
    public static func appTransactionID(deviceId: String, bundleId: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(bundleId)\u{0}\(deviceId)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash % 1_000_000_000_000_000)
        return "7" + String(repeating: "0", count: 15 - digits.count) + digits
    }
}
