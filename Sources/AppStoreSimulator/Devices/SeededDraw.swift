import PurserCore

/// A number in 0..<1 drawn from a seed and a key naming the choice ("redelivery:2000000000000001"): the same seed and
/// key always give the same number, whatever order choices are made in, so concurrent callbacks cannot change a
/// replay.
enum SeededDraw {
    static func unit(seed: UInt64, key: String) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var generator = SeededGenerator(seed: seed ^ hash)
        return Double.random(in: 0..<1, using: &generator)
    }
}
