/// Carries a value StoreKit's own queue would carry between threads (a request, an observer) into the task that plays
/// that queue's part here. Never used for anything the app shares.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
}
