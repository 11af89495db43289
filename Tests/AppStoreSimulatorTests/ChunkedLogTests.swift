import Testing

@testable import AppStoreSimulator

/// The notification log's chunked list reads, writes and iterates as an array does, across its chunks' edges.
@Suite struct ChunkedLogTests {
    @Test func itBehavesAsAnArrayAcrossChunks() {
        let total = ChunkedLog<Int>.chunkSize * 2 + 3
        var log = ChunkedLog<Int>()
        var array: [Int] = []
        #expect(log.isEmpty)
        for value in 0..<total {
            log.append(value * 7)
            array.append(value * 7)
        }
        #expect(log.count == total)
        #expect(Array(log) == array)
        for position in [0, ChunkedLog<Int>.chunkSize - 1, ChunkedLog<Int>.chunkSize, total - 1] {
            log[position] = -position
            array[position] = -position
        }
        #expect(Array(log) == array)
        #expect(log.last == array.last && log.first == array.first)
        #expect(log.firstIndex(of: -ChunkedLog<Int>.chunkSize) == ChunkedLog<Int>.chunkSize)
    }
}
