import AppStoreSimulator
import Purser
import PurserCore

/// The seeded plan of a run: devices and what every purchase meets. The same seed and configuration give the same
/// plan, whatever the machine; replay a failure with `--seed`.
public struct ChaosPlan: Sendable {
    public static let products = ["gold60", "gold120"]

    public var devices: [DevicePlan]
    public var purchaseCount: Int

    public init(configuration: ChaosConfiguration) {
        var random = SeededGenerator(seed: configuration.seed)
        func chance(_ family: FaultFamily) -> Bool {
            let rate = configuration.rate(family)
            return rate > 0 && Double.random(in: 0..<1, using: &random) < rate
        }
        let users = (0..<configuration.users).map { "user-\($0 + 1)" }
        var devices: [DevicePlan] = (0..<configuration.devices).map { index in
            DevicePlan(
                index: index, id: "device-\(index + 1)",
                generation: index.isMultiple(of: 2) ? .storeKit1 : .storeKit2,
                keychainJournal: (index / 2).isMultiple(of: 2), losesApplicationUsername: false,
                duplicateCallbacks: false, returnsAfterFaults: true, purchases: [])
        }
        /// A device family's share of devices, rounded, and at least one device when it is on.
        func chosenDevices(_ family: FaultFamily, among candidates: [Int]) -> Set<Int> {
            let rate = configuration.rate(family)
            guard rate > 0, !candidates.isEmpty else { return [] }
            let count = max(1, Int((rate * Double(candidates.count)).rounded()))
            return Set(candidates.shuffled(using: &random).prefix(count))
        }
        // applicationUsername is a StoreKit 1 field: StoreKit 2 hands the account token back signed.
        let losing = chosenDevices(
            .nilApplicationUsername,
            among: devices.indices.filter { devices[$0].generation == .storeKit1 })
        let duplicating = chosenDevices(.duplicateCallbacks, among: Array(devices.indices))
        let lost = chosenDevices(.deviceNeverReturns, among: Array(devices.indices))
        for index in devices.indices {
            devices[index].losesApplicationUsername = losing.contains(index)
            devices[index].duplicateCallbacks = duplicating.contains(index)
            devices[index].returnsAfterFaults = !lost.contains(index)
        }
        // Families added after the first release draw from their own stream, so an older seed still plans the
        // same purchases with the same faults as before.
        var later = SeededGenerator(seed: configuration.seed ^ 0x51_0E_5EED)
        func laterChance(_ family: FaultFamily) -> Bool {
            let rate = configuration.rate(family)
            return rate > 0 && Double.random(in: 0..<1, using: &later) < rate
        }
        // Server kills came later still: their own stream again.
        var kills = SeededGenerator(seed: configuration.seed ^ 0xC1_11_5EED)
        // And the webhook receiver's faults after them: a stream of their own.
        var receiver = SeededGenerator(seed: configuration.seed ^ 0x3E_CE_1E_5EED)
        // The spending game backend came last: its own stream.
        var wallet = SeededGenerator(seed: configuration.seed ^ 0x5BE_D5EED)
        // Database failovers: their own stream too.
        var failovers = SeededGenerator(seed: configuration.seed ^ 0xFA_11_0E_5EED)
        let failoverRate = configuration.rate(.databaseFailover)
        var failoverPlanned = false
        var signedIn = devices.indices.map { users[$0 % users.count] }
        for index in 0..<configuration.purchases {
            let device = index % devices.count
            let plan = devices[device]
            var families = Set<FaultFamily>()
            if plan.losesApplicationUsername { families.insert(.nilApplicationUsername) }
            if plan.duplicateCallbacks { families.insert(.duplicateCallbacks) }
            if !plan.returnsAfterFaults { families.insert(.deviceNeverReturns) }
            let switched = users.count > 1 && chance(.accountSwitch)
            if switched {
                let others = users.filter { $0 != signedIn[device] }
                signedIn[device] = others.randomElement(using: &random)!
                families.insert(.accountSwitch)
            }
            var purchase = PlannedPurchase(
                index: index, device: device, user: signedIn[device],
                productID: Self.products.randomElement(using: &random)!, crashAt: nil, requestsLost: 0,
                responsesLost: 0, reinstall: false, rebuy: false, verifyReceiptFault: nil,
                notificationsLost: 0, refund: false, replayBy: nil, forgery: false, families: families)
            if chance(.clientCrash) {
                purchase.crashAt = PurchaseStep.allCases.randomElement(using: &random)
                purchase.families.insert(.clientCrash)
            }
            if chance(.requestLost) {
                purchase.requestsLost = Int.random(in: 1...6, using: &random)
                purchase.families.insert(.requestLost)
            }
            if chance(.responseLost) {
                purchase.responsesLost = Int.random(in: 1...6, using: &random)
                purchase.families.insert(.responseLost)
            }
            if chance(.reinstall) {
                purchase.reinstall = true
                purchase.families.insert(.reinstall)
            }
            if chance(.rebuyUnfinished) {
                purchase.rebuy = true
                purchase.families.insert(.rebuyUnfinished)
            }
            if chance(.verifyReceiptErrors) {
                purchase.verifyReceiptFault = [VerifyReceiptFault.status(21005), .http(503), .delay(seconds: 3)]
                    .randomElement(using: &random)
                purchase.families.insert(.verifyReceiptErrors)
            }
            if chance(.notificationLoss) {
                purchase.notificationsLost = Int.random(in: 1...3, using: &random)
                purchase.families.insert(.notificationLoss)
            }
            if chance(.refund) {
                purchase.refund = true
                purchase.refundShares = Self.refundShares(using: &random)
                purchase.families.insert(.refund)
            }
            if users.count > 1, chance(.replay) {
                purchase.replayBy = users.filter { $0 != purchase.user }.randomElement(using: &random)
                purchase.families.insert(.replay)
            }
            if chance(.forgery) {
                purchase.forgery = true
                purchase.families.insert(.forgery)
            }
            // StoreKit 2's `purchase` waits for the sheet however long it takes; only StoreKit 1 apps give up.
            if laterChance(.slowPayment), plan.generation == .storeKit1 {
                purchase.slowPayment = true
                purchase.families.insert(.slowPayment)
            }
            let killRate = configuration.rate(.serverKill)
            if killRate > 0, Double.random(in: 0..<1, using: &kills) < killRate {
                purchase.serverKill = .init(
                    replica: Int.random(in: 0..<1024, using: &kills),
                    afterMilliseconds: Int.random(in: 0...400, using: &kills))
                purchase.families.insert(.serverKill)
            }
            // At least one failover per run: the middle purchase fails over when the draws gave none before it.
            if failoverRate > 0,
                Double.random(in: 0..<1, using: &failovers) < failoverRate
                    || (!failoverPlanned && index == configuration.purchases / 2)
            {
                purchase.databaseFailoverAfterMilliseconds = Int.random(in: 0...400, using: &failovers)
                purchase.families.insert(.databaseFailover)
                failoverPlanned = true
            }
            let receiverRate = configuration.rate(.webhookReceiver)
            if receiverRate > 0, Double.random(in: 0..<1, using: &receiver) < receiverRate {
                purchase.receiverFault = .init(
                    kind: GameBackend.Fault.Kind.allCases.randomElement(using: &receiver)!,
                    posts: Int.random(in: 1...6, using: &receiver))
                purchase.families.insert(.webhookReceiver)
            }
            let retried =
                configuration.rate(.spendRetry) > 0
                && Double.random(in: 0..<1, using: &wallet) < configuration.rate(.spendRetry)
            purchase.wallet = Self.walletOperation(after: index, spendRetry: retried, using: &wallet)
            if retried, purchase.wallet != nil { purchase.families.insert(.spendRetry) }
            devices[device].purchases.append(purchase)
        }
        self.devices = devices
        self.purchaseCount = configuration.purchases
    }

    /// The plan cut to its first `count` purchases (baselines may replay fewer).
    public func prefix(_ count: Int) -> ChaosPlan {
        var copy = self
        for index in copy.devices.indices {
            copy.devices[index].purchases = copy.devices[index].purchases.filter { $0.index < count }
        }
        copy.purchaseCount = min(count, purchaseCount)
        return copy
    }

    /// Half of the refunds are Apple's partial ones (`REFUND_PRORATED`): one share of 1-90% of the purchase, and
    /// half the time a second that keeps the total below 100%; the other half are one whole refund (empty).
    static func refundShares(using random: inout SeededGenerator) -> [Int] {
        guard Bool.random(using: &random) else { return [] }
        let first = Int.random(in: 1_000...90_000, using: &random)
        guard Bool.random(using: &random) else { return [first] }
        return [first, Int.random(in: 1...(RefundRules.whole - 1 - first), using: &random)]
    }

    /// How many purchases meet each family.
    public var injected: [FaultFamily: Int] {
        var counts: [FaultFamily: Int] = [:]
        for device in devices {
            for purchase in device.purchases {
                for family in purchase.families { counts[family, default: 0] += 1 }
            }
        }
        return counts
    }

    /// The plan of another app of a studio run (`--apps`): the same purchases on devices of its own (ids prefixed
    /// with the bundle id, so no fault, receipt or queue is shared with another app's devices) that sell `bundleID`.
    public func forApp(_ bundleID: String) -> ChaosPlan {
        var plan = self
        for index in plan.devices.indices {
            plan.devices[index].id = bundleID + "/" + plan.devices[index].id
            plan.devices[index].bundleID = bundleID
        }
        return plan
    }
}
