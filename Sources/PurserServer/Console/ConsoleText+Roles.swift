extension ConsoleText {
    /// The words of roles, operators and approvals, merged into each language's table.
    static let roleEnglish: [String: String] = [
        "approvals": "Approvals", "operators": "Operators", "role": "Role", "limits": "Own grant limits",
        "forbidden": "Your role may not do this.", "forbiddenNeeds": "This needs the role",
        "grantWaits": "Above your limit: the credit waits for a second operator's approval (Approvals).",
        "approvalsHint": "Goodwill credits above a support operator's limit wait here until a second operator "
            + "approves them; the credit's audit record then names both.",
        "noRequests": "No request waits.", "requestedBy": "asked by", "approve": "Approve", "decline": "Decline",
        "needsAnother": "needs another operator",
        "grantApproved": "Approved and credited; the audit record names both.",
        "grantDeclined": "Declined.", "grantDecided": "This request is no longer waiting.",
        "grantSecondOperator": "A second operator must approve your own request.",
        "grantAboveYourLimit": "The amount is above your own limit: an admin must approve it.",
        "operatorsHint": "Roles in this app: viewer reads, support binds, makes good and gives goodwill within the "
            + "limits, admin also replays webhooks and manages operators. Default limits per grant / per day:",
        "setRole": "Set role", "disabled": "disabled", "enabled": "enabled", "enable": "Enable", "disable": "Disable",
        "perGrant": "per grant", "perDay": "per day", "setLimits": "Set limits", "setPassword": "Set password",
        "addOperator": "Add operator", "operatorSaved": "Saved and recorded in the audit trail.",
        "operatorInvalid": "Fill in a name, a role and a password of 10 to 200 characters (limits: whole numbers).",
        "operatorExists": "An operator of this name exists.", "operatorUnknown": "No operator of this name.",
        "appNotFound": "There is no such page in the apps you may see.", "apps": "Apps",
        "foundById": "transaction id",
        "otherApps": "Password, state and limits: only an admin of every app this operator has a role in.",
    ]

    static let roleChinese: [String: String] = [
        "approvals": "审批", "operators": "客服账号管理", "role": "角色", "limits": "个人发放上限",
        "forbidden": "您的角色无权执行此操作。", "forbiddenNeeds": "需要的角色：",
        "grantWaits": "超出您的上限：该发放需等待另一位客服审批（见“审批”）。",
        "approvalsHint": "超出客服上限的补偿发放在此等待另一位客服审批；批准后，发放的审计记录会同时记下两人。",
        "noRequests": "没有待审批的申请。", "requestedBy": "申请人", "approve": "批准", "decline": "拒绝",
        "needsAnother": "需由另一位客服审批", "grantApproved": "已批准并发放；审计记录记下了两人。",
        "grantDeclined": "已拒绝。", "grantDecided": "该申请已不在等待中。",
        "grantSecondOperator": "自己的申请须由另一位客服审批。",
        "grantAboveYourLimit": "数量超出您的个人上限：须由管理员审批。",
        "operatorsHint": "本应用中的角色：viewer 只读；support 可归属、补发并在上限内补偿发放；admin 另可重新发送 Webhook 并管理客服账号。默认上限（每次 / 每天）：",
        "setRole": "设置角色", "disabled": "已停用", "enabled": "已启用", "enable": "启用", "disable": "停用",
        "perGrant": "每次", "perDay": "每天", "setLimits": "设置上限", "setPassword": "设置密码",
        "addOperator": "添加客服账号", "operatorSaved": "已保存，并已记入审计记录。",
        "operatorInvalid": "请填写名称、角色以及 10 至 200 个字符的密码（上限须为整数）。",
        "operatorExists": "已有同名客服账号。", "operatorUnknown": "没有该客服账号。",
        "appNotFound": "您可查看的应用中没有此页面。", "apps": "应用", "foundById": "交易 ID",
        "otherApps": "密码、状态和上限：仅限该客服所在每个应用的管理员修改。",
    ]
}
