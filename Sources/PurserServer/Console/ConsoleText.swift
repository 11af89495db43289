import Foundation

/// The console's words in English and Simplified Chinese, by key. The language is the `purser_console_lang` cookie
/// (set by the switch on every page), else the first of `Accept-Language` that the console speaks, else English.
enum ConsoleText {
    static let languages = ["en", "zh-Hans"]
    static let cookieName = "purser_console_lang"

    static func language(cookie: String?, acceptLanguage: String?) -> String {
        if let cookie, languages.contains(cookie) { return cookie }
        for range in (acceptLanguage ?? "").split(separator: ",") {
            let tag = range.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if tag.lowercased().hasPrefix("zh") { return "zh-Hans" }
            if tag.lowercased().hasPrefix("en") { return "en" }
        }
        return "en"
    }

    static func table(_ language: String) -> [String: String] { language == "zh-Hans" ? chineseTable : englishTable }

    private static let englishTable = english.merging(roleEnglish, uniquingKeysWith: { first, _ in first })
    private static let chineseTable = chinese.merging(roleChinese, uniquingKeysWith: { first, _ in first })

    static let english: [String: String] = [
        "lang": "en", "title": "Purser support", "signIn": "Sign in", "signOut": "Sign out",
        "operator": "Operator", "password": "Password", "orToken": "or the admin token", "token": "Admin token",
        "badCredentials": "The name, password or token is not right.",
        "tooManyAttempts": "Too many attempts. Wait five minutes and try again.",
        "search": "Search",
        "searchHint": "Apple order ID (e.g. MK5TTTVWJH), transaction ID, Purser order ID or user ID",
        "foundByAppleOrder": "in this Apple order", "foundByUser": "credited to this user",
        "foundByAppTransaction": "bought with this app account",
        "nothingFound": "Nothing found for this.", "noTransactionYet": "no Apple transaction is bound to it yet",
        "transaction": "Transaction", "product": "Product",
        "purchased": "Purchased", "environment": "Environment", "apple": "Apple says",
        "appleUnanswered": "Apple did not answer; below is the ledger's record", "ledger": "Ledger says",
        "appleNotFound": "Apple knows no transaction of this app with this id; below is the ledger's record",
        "owner": "Owner", "order": "Order", "grants": "Grants", "audit": "Audit trail", "at": "At",
        "event": "Event", "cause": "Cause", "detail": "Detail", "nobody": "nobody yet",
        "makeGood": "Make good", "makeGoodHint": "Credit this verified transaction to a user, with a reason.",
        "user": "User ID", "reason": "Reason", "grant": "Grant", "granted": "Granted and recorded in the audit trail.",
        "formExpired": "This form has expired. Reload the page and try again.", "missing": "Fill in every field.",
        "tooLong": "A field is too long.",
        "whyUnbound":
            "Apple charged for it, but no order names its owner: find the customer and make good to them.",
        "whyCredited": "It is credited to its owner.",
        "whyRejected": "It was refused: see the audit trail.", "whyRevoked": "Apple refunded or revoked it.",
        "whyUnknown": "The ledger has never seen it: the app has not sent it and no notification named it yet.",
        "results": "Transactions found",
        "dashboard": "Dashboard", "unbound": "Unbound", "webhooks": "Webhooks", "oldest": "oldest",
        "chartHourly": "Credits and revokes per hour, last 48 hours", "credits": "credits", "revokes": "revokes",
        "now": "now", "chartDecisions": "What the ledger decided, last 48 hours",
        "chartQueues": "Webhook backlog and unbound queue, last 48 hours (sampled)",
        "webhookBacklog": "webhook backlog", "samples": "samples; latest backlog / unbound",
        "latestSample": "latest (backlog / unbound):",
        "chartUnboundAge": "Oldest unbound transaction against its alert threshold", "alertThreshold": "alert",
        "decision.credited": "credited", "decision.rejected": "rejected", "decision.revoked": "revoked",
        "decision.restored": "restored", "decision.recorded_unbound": "recorded unbound",
        "decision.recorded_revoked": "recorded already revoked", "decision.override": "credited by support",
        "unboundHint": "Paid at Apple, owned by nobody yet, oldest first, with the orders of the same product made in "
            + "the half hour before the charge.",
        "queueEmpty": "No unbound transaction.", "noCandidates": "No waiting order of this product before it.",
        "orderOf": "Order of", "bindTo": "Bind to", "noFailedEvents": "No failed or dead webhook event.",
        "status": "Status", "attempts": "Attempts", "lastResult": "Last answer", "replay": "Replay",
        "replayed": "Replayed: it goes out again from its first attempt (audited).",
        "waitingOrders": "Waiting orders", "outbox": "Webhook events undelivered", "deadEvents": "Dead webhook events",
        "deliveredEvents": "Webhook events delivered", "retries": "retries",
        "lastNotification": "Last App Store notification", "intakeLag": "arrived after",
        "lastReconciliation": "Last reconciliation", "today": "Today's ledger events (UTC)",
        "userPage": "User", "userPageOf": "Everything of user", "balances": "Balances", "entitlements": "Owned",
        "purchases": "Purchases", "orders": "Orders", "created": "Created", "recorded": "Recorded",
        "creditedTo": "credited to", "signedToken": "Token Apple signed", "noToken": "none (no appAccountToken)",
        "namesNoOrder": "names no order", "namesOrderOf": "names the order of", "price": "Price Apple signed",
        "trace": "Trace",
        "priceUnknown": "not known: the ledger keeps no price, and Apple did not answer",
        "whyRejectedBecause": "It was refused:",
        "overrideHint": "Credit it anyway: the catalog is right and Apple's record is not (audited as an override)",
        "walletHistory": "Wallet history (newest first)", "held": "Reserved by open holds (not spendable)",
        "goodwill": "Goodwill credit", "currency": "Currency",
        "amount": "Amount", "credit": "Credit",
        "goodwillHint": "For what no transaction can make good: a deposit with your reason, audited and sent to the "
            + "game's backend as a wallet.changed event. At most, per currency:",
        "goodwillCredited": "Credited, recorded in the audit trail and sent to the game's backend.",
        "goodwillInvalid": "Fill in a currency, a reason and a whole amount from 1 to",
    ]

    static let chinese: [String: String] = [
        "lang": "zh-Hans", "title": "Purser 客服", "signIn": "登录", "signOut": "退出",
        "operator": "客服账号", "password": "密码", "orToken": "或使用管理令牌", "token": "管理令牌",
        "badCredentials": "账号、密码或令牌不正确。", "tooManyAttempts": "尝试次数过多，请五分钟后再试。",
        "search": "查询", "searchHint": "Apple 订单号（如 MK5TTTVWJH）、交易 ID、Purser 订单 ID 或用户 ID",
        "foundByAppleOrder": "属于该 Apple 订单", "foundByUser": "已发放给该用户", "foundByAppTransaction": "该应用账户购买",
        "nothingFound": "没有找到相关记录。", "noTransactionYet": "尚无 Apple 交易与之关联", "transaction": "交易", "product": "商品",
        "purchased": "购买时间",
        "environment": "环境", "apple": "Apple 的记录", "appleUnanswered": "Apple 未应答；以下为账本的记录", "ledger": "账本的记录",
        "appleNotFound": "Apple 没有本应用的这笔交易；以下为账本的记录",
        "owner": "归属用户", "order": "订单",
        "grants": "发放内容", "audit": "审计记录", "at": "时间", "event": "事件", "cause": "原因", "detail": "详情",
        "nobody": "尚无归属", "makeGood": "补发", "makeGoodHint": "将这笔已验证的交易发放给指定用户，并填写原因。",
        "user": "用户 ID", "reason": "原因", "grant": "发放", "granted": "已发放，并已记入审计记录。",
        "formExpired": "表单已过期，请刷新页面后重试。", "missing": "请填写所有字段。", "tooLong": "有字段过长。",
        "whyUnbound": "Apple 已扣款，但没有订单指明归属用户：请找到这位用户并为其补发。", "whyCredited": "已发放给归属用户。", "whyRejected": "已被拒绝：请查看审计记录。",
        "whyRevoked": "Apple 已退款或撤销。", "whyUnknown": "账本中没有这笔交易：应用尚未提交，也没有通知提到它。", "results": "找到的交易",
        "dashboard": "概览", "unbound": "未归属", "webhooks": "Webhook", "oldest": "最早",
        "chartHourly": "每小时发放与撤回（最近 48 小时）", "credits": "发放", "revokes": "撤回", "now": "现在",
        "chartDecisions": "账本的判定（最近 48 小时）", "chartQueues": "Webhook 积压与未归属队列（最近 48 小时，采样）",
        "webhookBacklog": "Webhook 积压", "samples": "个样本；最新 积压 / 未归属", "latestSample": "最新（积压 / 未归属）：",
        "chartUnboundAge": "最早未归属交易的等待时长与告警阈值", "alertThreshold": "告警",
        "decision.credited": "已发放", "decision.rejected": "已拒绝", "decision.revoked": "已撤回", "decision.restored": "已恢复",
        "decision.recorded_unbound": "已记录，未归属", "decision.recorded_revoked": "记录时已撤销", "decision.override": "客服强制发放",
        "unboundHint": "Apple 已扣款但尚无归属的交易，最早的在前，并列出扣款前半小时内同一商品的订单。",
        "queueEmpty": "没有未归属的交易。", "noCandidates": "扣款前没有同一商品的待支付订单。", "orderOf": "订单用户",
        "bindTo": "归属给", "noFailedEvents": "没有失败或已放弃的 Webhook 事件。", "status": "状态",
        "attempts": "尝试次数", "lastResult": "最近一次应答", "replay": "重新发送",
        "replayed": "已重新发送：将从第一次尝试开始重新投递（已记入审计）。", "waitingOrders": "待支付订单",
        "outbox": "未投递的 Webhook 事件", "deadEvents": "已放弃的 Webhook 事件", "deliveredEvents": "已投递的 Webhook 事件",
        "retries": "次重试", "lastNotification": "最近的 App Store 通知", "intakeLag": "延迟",
        "lastReconciliation": "最近一次对账", "today": "今日账本事件（UTC）",
        "userPage": "用户", "userPageOf": "查看该用户的全部记录：", "balances": "余额", "entitlements": "已拥有",
        "purchases": "购买记录", "orders": "订单", "created": "创建时间", "recorded": "记录时间", "creditedTo": "已发放给",
        "signedToken": "Apple 签名的令牌", "noToken": "无（没有 appAccountToken）", "namesNoOrder": "不对应任何订单",
        "namesOrderOf": "对应订单的用户：", "price": "Apple 签名的价格", "trace": "追踪", "priceUnknown": "未知：账本不保存价格，且 Apple 未应答",
        "whyRejectedBecause": "已被拒绝：",
        "overrideHint": "仍然发放：以商品目录为准，Apple 的记录有误（作为例外处理记入审计）",
        "walletHistory": "钱包记录（最新在前）", "held": "被未结算的预留冻结（不可使用）", "goodwill": "补偿发放", "currency": "货币", "amount": "数量",
        "credit": "发放",
        "goodwillHint": "用于无法通过任何交易补发的情况：填写原因后存入，记入审计，并以 wallet.changed 事件通知游戏后端。每种货币最多：",
        "goodwillCredited": "已发放，已记入审计记录并通知游戏后端。",
        "goodwillInvalid": "请填写货币、原因，以及 1 至以下范围内的整数数量：",
    ]
}
