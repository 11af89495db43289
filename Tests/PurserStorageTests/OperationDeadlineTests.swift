import Foundation
import Testing

@testable import PurserStorage

/// A database operation answers its caller by its deadline, whether or not the operation itself ever returns.
@Suite struct OperationDeadlineTests {
    @Test func aFastOperationAnswersWithItsValueOrItsError() async throws {
        #expect(try await OperationDeadline.run(.seconds(5)) { 42 } == 42)
        await #expect(throws: StorageError(.queryFailed, "")) {
            try await OperationDeadline<Int>.run(.seconds(5)) { throw StorageError(.queryFailed, "refused") }
        }
    }

    @Test(.timeLimit(.minutes(1))) func anOperationThatNeverReturnsIsUnavailableAtTheDeadline() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        // Never returns, and ignores cancellation: what a query postgres-nio never answers looks like.
        let stuck: @Sendable () async throws -> Int = {
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 0
        }
        await #expect(throws: StorageError(.unavailable, "")) {
            try await OperationDeadline.run(.milliseconds(200), stuck)
        }
        #expect(clock.now - start < .seconds(5), "answered at the deadline, not never")
    }
}
