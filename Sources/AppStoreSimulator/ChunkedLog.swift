/// An append-mostly list kept in fixed-size chunks: growing never copies what is there, and at most one chunk is
/// spare. An array doubles its buffer as it grows: at a million entries of 224 bytes the simulator's notification log
/// would hold a buffer of 2^21 entries (470 MB, half of it empty) and copy the old one into it on the actor.
struct ChunkedLog<Element>: RandomAccessCollection, MutableCollection {
    /// Entries per chunk: 4,096 (under 1 MB of notifications).
    static var chunkSize: Int { 4096 }

    private var chunks: [[Element]] = []
    private(set) var count = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index out of range")
            return chunks[position / Self.chunkSize][position % Self.chunkSize]
        }
        set {
            precondition(position >= 0 && position < count, "index out of range")
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
        }
    }

    /// Adds `element` at the end; a full last chunk starts a new one, reserved whole.
    mutating func append(_ element: Element) {
        if count % Self.chunkSize == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedLog: Sendable where Element: Sendable {}
