import Mustache

/// The console's Mustache templates (swift-mustache), compiled once. `{{…}}` escapes HTML, so whatever a customer,
/// an operator or Apple put into a field is shown as text, never as markup.
enum ConsoleTemplates {
    static let library: MustacheLibrary = {
        var templates: [String: MustacheTemplate] = [:]
        for (name, text) in sources.merging(roleSources, uniquingKeysWith: { first, _ in first }) {
            // The sources are ours and fixed: a template that does not parse is a defect caught by every test.
            templates[name] = try! MustacheTemplate(string: text)
        }
        return MustacheLibrary(templates: templates)
    }()

    static let sources: [String: String] = [
        "head": """
        <!doctype html>
        <html lang="{{t.lang}}"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{t.title}}</title><link rel="stylesheet" href="/console/assets/console.css"></head>
        <body><header><strong>{{t.title}}</strong>
        {{#signedIn}}{{#studio}}<nav id="apps" aria-label="{{t.apps}}">{{#switcher}}<a href="{{link}}"
        class="app{{#current}} current{{/current}}"{{#current}} aria-current="page"{{/current}}>{{app}}</a>
        {{/switcher}}</nav>{{/studio}}<a href="/console/dashboard">{{t.dashboard}}</a> <a href="/console/search">{{t.search}}</a>
        <a href="/console/unbound">{{t.unbound}}</a> <a href="/console/webhooks">{{t.webhooks}}</a>
        {{#canSupport}}<a href="/console/approvals" id="approvals-link">{{t.approvals}}</a>{{/canSupport}}
        {{#canAdmin}}<a href="/console/operators" id="operators-link">{{t.operators}}</a>{{/canAdmin}}
        <form method="post" action="/console/sign-out" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><button id="sign-out">{{t.signOut}} ({{operator}},
        <span id="role">{{role}}</span>)</button>
        </form>{{/signedIn}}
        <span class="lang"><a href="/console/lang/en?back={{path}}">English</a> ·
        <a href="/console/lang/zh-Hans?back={{path}}">简体中文</a></span></header><main>
        {{#notice}}<p class="notice" id="notice">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" id="error">{{error}}</p>{{/error}}
        """,
        "foot": "</main></body></html>",
        "sign-in": """
        {{> head}}
        <h1>{{t.signIn}}</h1>
        <form method="post" action="/console/sign-in" id="sign-in">
        <label>{{t.operator}} <input name="operator" autocomplete="username" maxlength="100"></label>
        <label>{{t.password}} <input name="password" type="password" autocomplete="current-password"
          maxlength="200"></label>
        <p>{{t.orToken}}</p>
        <label>{{t.token}} <input name="token" type="password" maxlength="500"></label>
        <button type="submit">{{t.signIn}}</button></form>
        {{> foot}}
        """,
        "search": """
        {{> head}}
        <h1>{{t.search}}</h1>
        <form method="get" action="/console/search" id="search">
        <input name="q" value="{{query}}" placeholder="{{t.searchHint}}" size="60" maxlength="200" autofocus>
        <button type="submit">{{t.search}}</button></form>
        {{#searched}}{{^hasResults}}<p id="nothing">{{t.nothingFound}}</p>{{/hasResults}}{{/searched}}
        {{#hasResults}}<h2>{{t.results}}</h2>{{/hasResults}}
        {{#order}}<p id="order">{{t.order}} {{id}} · {{userId}} · {{productId}} ×{{quantity}} · {{state}} · {{created}} ·
          {{t.noTransactionYet}}{{#app}} · <span class="app">{{app}}</span>{{/app}}</p>{{/order}}
        {{#userLink}}<p><a id="user-link" href="{{userLink}}">{{t.userPageOf}} {{query}}</a></p>{{/userLink}}
        {{#otherUsers}}<p><a class="user-link" href="{{link}}">{{t.userPageOf}} {{query}}</a> ·
          <span class="app">{{app}}</span></p>{{/otherUsers}}
        <ul id="results">{{#results}}<li><a href="{{link}}">{{transactionId}}</a>
          {{#app}}<span class="app">{{app}}</span> · {{/app}}{{productId}} · {{ledger}} · {{source}}</li>{{/results}}</ul>
        {{> foot}}
        """,
        "transaction": """
        {{> head}}
        <h1>{{t.transaction}} <span id="transaction-id">{{view.transactionId}}</span></h1>
        <p class="why" id="why">{{why}}</p>
        <dl>
        <dt>{{t.product}}</dt><dd>{{view.productId}}</dd>
        <dt>{{t.purchased}}</dt><dd>{{purchased}}</dd>
        <dt>{{t.environment}}</dt><dd>{{view.environment}}</dd>
        <dt>{{t.apple}}</dt><dd id="apple">{{view.apple}}</dd>
        <dt>{{t.ledger}}</dt><dd id="ledger">{{view.ledger}}</dd>
        <dt>{{t.owner}}</dt><dd id="owner">{{#ownerLink}}<a href="{{ownerLink}}">{{owner}}</a>{{/ownerLink}}{{^ownerLink}}{{owner}}{{/ownerLink}}</dd>
        <dt>{{t.order}}</dt><dd>{{order}}</dd>
        <dt>{{t.signedToken}}</dt><dd id="token">{{token}}</dd>
        <dt>{{t.price}}</dt><dd id="price">{{price}}</dd>
        <dt>{{t.grants}}</dt><dd>{{grants}}</dd>
        {{#trace}}<dt>{{t.trace}}</dt><dd id="trace">{{trace}}</dd>{{/trace}}
        </dl>
        <h2>{{t.audit}}</h2>
        <table id="audit"><tr><th>{{t.at}}</th><th>{{t.event}}</th><th>{{t.cause}}</th><th>{{t.detail}}</th></tr>
        {{#audit}}<tr><td>{{at}}</td><td>{{event}}</td><td>{{cause}}</td><td>{{detail}}</td></tr>{{/audit}}
        </table>
        <h2>{{t.webhooks}}</h2>
        {{^hasDeliveries}}<p>—</p>{{/hasDeliveries}}
        <table id="deliveries">{{#deliveries}}<tr><td>{{id}}</td><td>{{endpoint}}</td><td>{{status}}</td>
        <td>{{attempts}}</td><td>{{lastResult}}</td></tr>{{/deliveries}}</table>
        {{#grantable}}{{#canSupport}}
        <h2>{{t.makeGood}}</h2><p>{{t.makeGoodHint}}</p>
        <form method="post" action="/console/transactions/{{view.transactionId}}/grant" id="make-good">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>{{t.user}} <input name="user" maxlength="200"></label>
        <label>{{t.reason}} <input name="reason" size="60" maxlength="500"></label>
        {{#overridable}}<label><input type="checkbox" name="override" value="{{overridable}}" id="override">
        {{t.overrideHint}} ({{overridable}})</label>{{/overridable}}
        <button type="submit">{{t.grant}}</button></form>
        {{/canSupport}}{{/grantable}}
        {{> foot}}
        """,
        "user": """
        {{> head}}
        <h1>{{t.userPage}} <span id="user-id">{{user}}</span></h1>
        <h2>{{t.balances}}</h2>
        {{^hasBalances}}<p>—</p>{{/hasBalances}}
        <table id="balances">{{#balances}}<tr><td>{{currency}}</td><td>{{amount}}</td></tr>{{/balances}}</table>
        {{#held}}<p id="held">{{t.held}}: {{held}}</p>{{/held}}
        <h2>{{t.entitlements}}</h2><p id="entitlements">{{#hasEntitlements}}{{entitlements}}{{/hasEntitlements}}
        {{^hasEntitlements}}—{{/hasEntitlements}}</p>
        {{#canSupport}}{{#goodwill}}<h2>{{t.goodwill}}</h2><p>{{t.goodwillHint}} {{limit}}.</p>
        <form method="post" action="/console/users/goodwill" id="goodwill">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{user}}">
        <input type="hidden" name="key" value="{{key}}">
        <label>{{t.currency}} <input name="currency" maxlength="64" required></label>
        <label>{{t.amount}} <input name="amount" type="number" min="1" max="{{limit}}" required></label>
        <label>{{t.reason}} <input name="reason" size="60" maxlength="500" required></label>
        <button type="submit">{{t.credit}}</button></form>{{/goodwill}}{{/canSupport}}
        <h2>{{t.walletHistory}}</h2>
        {{^hasHistory}}<p>—</p>{{/hasHistory}}
        <table id="history">{{#history}}<tr><td>{{at}}</td><td>{{kind}}</td><td>{{amounts}}</td>
        <td>{{#isTransaction}}<a href="/console/transactions/{{reference}}">{{reference}}</a>{{/isTransaction}}
        {{^isTransaction}}{{reference}}{{/isTransaction}}</td><td>{{cause}}</td></tr>{{/history}}</table>
        <h2>{{t.purchases}}</h2>
        {{^hasPurchases}}<p>—</p>{{/hasPurchases}}
        <table id="purchases"><tr><th>{{t.transaction}}</th><th>{{t.product}}</th><th>{{t.ledger}}</th>
        <th>{{t.recorded}}</th><th>{{t.detail}}</th></tr>
        {{#purchases}}<tr><td><a href="/console/transactions/{{transactionId}}">{{transactionId}}</a></td>
        <td>{{productId}}</td><td>{{ledger}}</td><td>{{recorded}}</td><td>{{why}}</td></tr>{{/purchases}}</table>
        <h2>{{t.orders}}</h2>
        {{^hasOrders}}<p>—</p>{{/hasOrders}}
        <table id="orders"><tr><th>{{t.order}}</th><th>{{t.product}}</th><th>{{t.status}}</th><th>{{t.created}}</th>
        <th>{{t.transaction}}</th></tr>
        {{#orders}}<tr><td>{{id}}</td><td>{{productId}} ×{{quantity}}</td><td>{{state}}</td><td>{{created}}</td>
        <td>{{#transactionId}}<a href="/console/transactions/{{transactionId}}">{{transactionId}}</a>{{/transactionId}}
        </td></tr>{{/orders}}</table>
        {{> foot}}
        """,
        "unbound": """
        {{> head}}
        <h1>{{t.unbound}}</h1><p>{{t.unboundHint}}</p>
        {{^hasRows}}<p id="empty">{{t.queueEmpty}}</p>{{/hasRows}}
        <table id="queue">{{#rows}}<tr><td><a href="/console/transactions/{{transactionId}}">{{transactionId}}</a>
        <br>{{productId}} · {{purchased}} · {{environment}}</td><td>
        {{^hasCandidates}}{{t.noCandidates}}{{/hasCandidates}}
        {{#candidates}}{{^canSupport}}{{t.orderOf}} <strong>{{user}}</strong> ({{created}}){{/canSupport}}
        {{#canSupport}}<form method="post" action="/console/transactions/{{transactionId}}/grant" class="bind">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="user" value="{{user}}">
        <input type="hidden" name="order" value="{{orderId}}">
        {{t.orderOf}} <strong>{{user}}</strong> ({{created}})
        <input name="reason" placeholder="{{t.reason}}" maxlength="500" required>
        <button type="submit">{{t.bindTo}} {{user}}</button></form>{{/canSupport}}{{/candidates}}
        </td></tr>{{/rows}}</table>
        {{> foot}}
        """,
        "webhooks": """
        {{> head}}
        <h1>{{t.webhooks}}</h1>
        {{^hasRows}}<p id="empty">{{t.noFailedEvents}}</p>{{/hasRows}}
        <table id="events"><tr><th>{{t.event}}</th><th>{{t.user}}</th><th>{{t.status}}</th><th>{{t.attempts}}</th>
        <th>{{t.lastResult}}</th><th></th></tr>
        {{#rows}}<tr><td>{{id}}<br>{{type}}</td><td>{{userId}}</td><td>{{status}}</td><td>{{attempts}}</td>
        <td>{{lastResult}}<br>{{lastAttempt}}</td><td>
        {{#canAdmin}}<form method="post" action="/console/webhooks/{{id}}/replay">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{t.replay}}</button></form>{{/canAdmin}}</td></tr>{{/rows}}</table>
        {{> foot}}
        """,
        "dashboard": """
        {{> head}}
        <h1>{{t.dashboard}}</h1>
        <dl id="dashboard">
        <dt>{{t.unbound}}</dt><dd id="unbound-count">{{unbound}} · {{t.oldest}} {{unboundOldest}}</dd>
        <dt>{{t.waitingOrders}}</dt><dd>{{waiting}} · {{t.oldest}} {{waitingOldest}}</dd>
        <dt>{{t.outbox}}</dt><dd>{{undelivered}} · {{t.oldest}} {{undeliveredOldest}}</dd>
        <dt>{{t.deadEvents}}</dt><dd id="dead-count">{{dead}}</dd>
        <dt>{{t.deliveredEvents}}</dt><dd>{{delivered}} ({{retries}} {{t.retries}})</dd>
        <dt>{{t.lastNotification}}</dt><dd>{{lastNotification}} · {{t.intakeLag}} {{intakeLag}}</dd>
        <dt>{{t.lastReconciliation}}</dt><dd id="last-reconciliation">{{lastReconciliation}} · {{reconciliationFound}}</dd>
        </dl>
        <h2>{{t.chartUnboundAge}}</h2>
        <figure>{{{chartUnboundAge}}}</figure>
        <h2>{{t.chartHourly}}</h2>
        <figure>{{{chartHourly}}}</figure>
        <h2>{{t.chartDecisions}}</h2>
        <figure>{{{chartDecisions}}}</figure>
        <h2>{{t.chartQueues}}</h2>
        <figure>{{{chartQueues}}}</figure>
        <h2>{{t.today}}</h2>
        {{^hasToday}}<p>—</p>{{/hasToday}}
        <table id="today">{{#today}}<tr><td>{{kind}}</td><td>{{count}}</td></tr>{{/today}}</table>
        {{> foot}}
        """,
    ]

    static let stylesheet = """
        body { font: 15px/1.5 system-ui, "PingFang SC", "Noto Sans CJK SC", sans-serif; margin: 0; color: #1d1d1f; }
        header { display: flex; flex-wrap: wrap; gap: 1em; align-items: center; padding: .6em 1.2em; }
        header { background: #f2f2f7; }
        header .lang { margin-left: auto; } main { padding: 1em 1.2em; max-width: 60em; }
        form.inline { display: inline; } label { display: block; margin: .4em 0; }
        .notice { background: #e8f5e9; padding: .5em; } .error { background: #ffebee; padding: .5em; }
        .why { font-weight: 600; } dl { display: grid; grid-template-columns: 10em 1fr; } dt { color: #6e6e73; }
        figure { margin: .4em 0 1.2em; } figure svg { max-width: 100%; height: auto; }
        nav#apps { display: flex; gap: .6em; padding-right: 1em; border-right: 1px solid #c7c7cc; }
        nav#apps a.current { font-weight: 700; text-decoration: none; }
        table { border-collapse: collapse; } td, th { border-bottom: 1px solid #ddd; padding: .2em .6em; }
        """
}
