import AppStoreVerification
import Foundation
import SwiftASN1
import X509

/// Shared by every fuzz target (each is built as its own binary with this file; see `scripts/fuzz.sh`).
enum FuzzSupport {
    /// Runs async work to completion from libFuzzer's synchronous callback.
    static func runBlocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    /// The App Store simulator's root (DER, in `PURSER_FUZZ_ROOT`), so the seed corpus verifies all the way and the
    /// fuzzer starts from deep inside the chain and signature checks; Apple's root alone without it.
    static let roots: [Certificate] = {
        var roots = [AppleRootCertificates.rootCAG3]
        if let path = ProcessInfo.processInfo.environment["PURSER_FUZZ_ROOT"],
            let der = FileManager.default.contents(atPath: path),
            let root = try? Certificate(derEncoded: Array(der))
        {
            roots.append(root)
        }
        return roots
    }()

    /// A verifier at a fixed time inside the simulator's certificates' validity, as the server's would be.
    static let verifier = SignedDataVerifier(configuration: .init(trustedRoots: roots))

    /// The input as text, when it is UTF-8 (what a `String` from a request or a file would hold).
    static func text(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    /// Stops the run with a message libFuzzer records with the input, when a property that must hold does not.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("property violated: \(message())") }
    }
}

/// libFuzzer's entry point, in each target's file: `fuzz(bytes)` sees one input.
func withInput(_ start: UnsafeRawPointer?, _ count: Int, _ fuzz: ([UInt8]) -> Void) -> CInt {
    guard let start else {
        fuzz([])
        return 0
    }
    fuzz(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
