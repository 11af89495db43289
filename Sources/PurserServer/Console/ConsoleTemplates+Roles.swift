extension ConsoleTemplates {
    /// The pages of roles: the refusal a role too small meets, the grant requests that wait for a second operator,
    /// and an admin's operators.
    static let roleSources: [String: String] = [
        "not-found": """
        {{> head}}
        <h1 id="not-found">404</h1>
        {{> foot}}
        """,
        "forbidden": """
        {{> head}}
        <h1 id="forbidden">403</h1><p>{{t.forbiddenNeeds}} <strong>{{needed}}</strong>.</p>
        {{> foot}}
        """,
        "approvals": """
        {{> head}}
        <h1>{{t.approvals}}</h1><p>{{t.approvalsHint}}</p>
        {{^hasRequests}}<p id="empty">{{t.noRequests}}</p>{{/hasRequests}}
        <table id="requests">{{#requests}}<tr id="request-{{id}}"><td><a href="{{userLink}}">{{user}}</a></td>
        <td>{{currency}} {{amount}}</td><td>{{reason}}</td><td>{{t.requestedBy}} {{requestedBy}}<br>{{requested}}</td>
        <td>{{#decidable}}<form method="post" action="/console/approvals/{{id}}/decide" class="decide">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="decision" value="approve" class="approve">{{t.approve}}</button>
        <button type="submit" name="decision" value="decline" class="decline">{{t.decline}}</button></form>
        {{/decidable}}{{^decidable}}{{t.needsAnother}}{{/decidable}}</td></tr>{{/requests}}</table>
        {{> foot}}
        """,
        "operators": """
        {{> head}}
        <h1>{{t.operators}}</h1><p>{{t.operatorsHint}} {{defaultPerGrant}} / {{defaultPerDay}}.</p>
        <table id="operators"><tr><th>{{t.operator}}</th><th>{{t.role}}</th><th>{{t.status}}</th>
        <th>{{t.limits}}</th><th></th></tr>
        {{#operators}}<tr id="operator-{{name}}"><td>{{name}}</td><td class="role">{{#appRoles}}
        <span class="app-role" data-app="{{app}}">{{#studio}}{{app}}: {{/studio}}{{role}}
        <form method="post" action="/console/operators/change" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}">
        <input type="hidden" name="app" value="{{app}}">
        <input type="hidden" name="change" value="role"><select name="role">{{#roles}}
        <option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/roles}}</select>
        <button type="submit" class="set-role">{{t.setRole}}</button></form></span>{{#studio}}<br>{{/studio}}
        {{/appRoles}}</td>
        {{#account}}<td class="status">{{#disabled}}{{t.disabled}}{{/disabled}}{{^disabled}}{{t.enabled}}{{/disabled}}
        <form method="post" action="/console/operators/change" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}">
        {{#disabled}}<button type="submit" name="change" value="enable" class="enable">{{t.enable}}</button>{{/disabled}}
        {{^disabled}}<button type="submit" name="change" value="disable" class="disable">{{t.disable}}</button>
        {{/disabled}}</form></td>
        <td><form method="post" action="/console/operators/change" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}">
        <input type="hidden" name="change" value="limits">
        <input name="perGrant" value="{{perGrant}}" size="6" placeholder="{{t.perGrant}}">
        <input name="perDay" value="{{perDay}}" size="6" placeholder="{{t.perDay}}">
        <button type="submit" class="set-limits">{{t.setLimits}}</button></form></td>
        <td><form method="post" action="/console/operators/change" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}">
        <input type="hidden" name="change" value="password">
        <input name="password" type="password" autocomplete="new-password" minlength="10" maxlength="200">
        <button type="submit" class="set-password">{{t.setPassword}}</button></form></td>{{/account}}
        {{^account}}<td class="status" colspan="3">{{t.otherApps}}</td>{{/account}}</tr>{{/operators}}</table>
        <h2>{{t.addOperator}}</h2>
        <form method="post" action="/console/operators" id="add-operator">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label>{{t.operator}} <input name="name" maxlength="100" required></label>
        <label>{{t.password}} <input name="password" type="password" autocomplete="new-password" minlength="10"
          maxlength="200" required></label>
        <label>{{t.role}} <select name="role"><option value="viewer">viewer</option>
        <option value="support" selected>support</option><option value="admin">admin</option></select></label>
        <button type="submit">{{t.addOperator}}</button></form>
        {{> foot}}
        """,
    ]
}
