#!/usr/bin/env python3
"""Holds a Grafana dashboard (examples/grafana-dashboard.json) to a live `purser serve` and the Prometheus scraping it
(scripts/check-prometheus.sh starts both):

  1. every metric each panel target's `expr` names is a series the live /metrics exports (a histogram as its
     `_bucket`, `_sum` or `_count`), or a series the rules record (`level:metric:operation`, as Prometheus has it);
  2. every label it uses, in a `{…}` matcher or in `by`/`without`/`on`/`ignoring`/`group_left`/`group_right`, is one
     that metric carries there (`le` on buckets; `job` and `instance`, which Prometheus adds at the scrape): a matcher's
     label on the metric before it, a `by`/`without` label on every metric it aggregates, an `on`/`ignoring` label on
     every metric of the enclosing expression, a `group_left`/`group_right` label on one of them;
  3. every selector of a metric that has `app` matches `app=~"$app"`; the `label_values(METRIC, LABEL)` variables
     name a live metric and one of its labels;
  4. every expr, `$app` as `.*` and `$__rate_interval` as `5m`, is answered with status success by /api/v1/query.

    grafana-dashboard.py --dashboard FILE --metrics URL --prometheus URL [--no-self-test]

Then, unless --no-self-test, it runs itself on two copies of the dashboard, one with a metric misspelt and one with a
label misspelt, and each must be refused naming the misspelt name. Exits 1 on any finding.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

TOKEN = re.compile(r"""\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)|(?P<num>\d[\w.]*)
    |(?P<id>[A-Za-z_:][\w:]*)|(?P<op>=~|!~|!=|==|>=|<=|[{}()\[\],=<>+\-*/%^@]))""", re.X)
AGGREGATIONS = {"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
                "quantile", "limitk", "limit_ratio"}
KEYWORDS = {"and", "or", "unless", "bool", "offset", "inf", "nan", "atan2"}
GROUPING = {"by", "without", "on", "ignoring", "group_left", "group_right"}
SCRAPE_LABELS = {"job", "instance"}
VARIABLES = {"$__rate_interval": "5m", "${__rate_interval}": "5m", "$__interval": "1m", "${__interval}": "1m",
             "$__range": "1h", "${__range}": "1h"}


def tokens(expr):
    found, at = [], 0
    while at < len(expr.rstrip()):
        match = TOKEN.match(expr, at)
        if not match or match.end() == at:
            raise ValueError(f"cannot read {expr[at:at + 20]!r}")
        kind = match.lastgroup
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


def parse(expr):
    """The selectors ([metric, {label: (operator, value)}, token index]) and the grouping clauses ([keyword, labels,
    (first, last) token span of the metrics it applies to]) of a PromQL expression."""
    for variable, value in VARIABLES.items():
        expr = expr.replace(variable, value)
    toks = tokens(expr)
    pairs, stack = {}, []
    for index, (_, text) in enumerate(toks):
        if text == "(":
            stack.append(index)
        elif text == ")":
            if not stack:
                raise ValueError("unbalanced )")
            pairs[stack.pop()] = index
    if stack:
        raise ValueError("unbalanced (")
    closing = {end: start for start, end in pairs.items()}
    selectors, clauses, index = [], [], 0
    while index < len(toks):
        kind, text = toks[index]
        following = toks[index + 1][1] if index + 1 < len(toks) else None
        if kind == "id" and text in GROUPING and following == "(":
            end = pairs[index + 1]
            labels = [t for k, t in toks[index + 2:end] if k == "id"]
            if text in ("by", "without"):
                after = toks[end + 1][1] if end + 1 < len(toks) else None
                span = (end + 1, pairs[end + 1]) if after == "(" else (closing[index - 1], index - 1)
            else:
                outer = [start for start, stop in pairs.items() if start < index < stop]
                span = (max(outer), pairs[max(outer)]) if outer else (0, len(toks))
            clauses.append([text, labels, span])
            index = end + 1
            continue
        if text == "{" or (kind == "id" and text not in AGGREGATIONS | KEYWORDS and following != "("):
            metric, matchers = (None, {}) if text == "{" else (text, {})
            start = index
            if text != "{":
                index += 1
            if index < len(toks) and toks[index][1] == "{":
                index += 1
                while toks[index][1] != "}":
                    if toks[index][1] == ",":
                        index += 1
                        continue
                    label, operator, value = toks[index][1], toks[index + 1][1], toks[index + 2][1]
                    matchers[label] = (operator, value[1:-1])
                    index += 3
                index += 1
            if metric is None and "__name__" in matchers:
                metric = matchers.pop("__name__")[1]
            selectors.append([metric, matchers, start])
            continue
        if text == "[":  # a range or subquery's duration
            while toks[index][1] != "]":
                index += 1
        index += 1
    return selectors, clauses


def exported(metrics_url):
    """Sample name → the label names its samples carry in the live /metrics."""
    with urllib.request.urlopen(metrics_url, timeout=10) as answer:
        text = answer.read().decode("utf-8")
    labels = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels.setdefault(sample.name, set()).update(sample.labels)
    return labels


def prometheus(base, path, **query):
    with urllib.request.urlopen(base + path + "?" + urllib.parse.urlencode(query), timeout=10) as answer:
        return json.load(answer)


def targets(dashboard):
    def panels(items):
        for panel in items:
            yield panel
            yield from panels(panel.get("panels", []))
    for panel in panels(dashboard.get("panels", [])):
        for target in panel.get("targets", []):
            if target.get("expr"):
                yield panel.get("title", "?"), target["expr"]


def check(dashboard, metrics_url, base):
    live = exported(metrics_url)
    recorded = {}

    def carried(metric):
        """The labels `metric` carries, or None when neither /metrics nor Prometheus (for a recorded one) has it."""
        if metric in live:
            return live[metric] | SCRAPE_LABELS
        if ":" in metric:
            if metric not in recorded:
                series = prometheus(base, "/api/v1/series", **{"match[]": metric}).get("data", [])
                recorded[metric] = {label for one in series for label in one} - {"__name__"} or None
            return recorded[metric]
        return None

    problems, missing, metrics, labels, queries, empty = [], {}, set(), 0, 0, []
    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("definition") or str(variable.get("query", ""))
        match = re.fullmatch(r"label_values\((\w+),\s*(\w+)\)", query.strip())
        if match:
            have = carried(match.group(1))
            if have is None:
                missing.setdefault(match.group(1), []).append(f"variable ${variable['name']}")
            elif match.group(2) not in have:
                problems.append(f"variable ${variable['name']}: {match.group(1)} has no label {match.group(2)}")
    for title, expr in targets(dashboard):
        where = f"panel {title!r}: {expr}"
        try:
            selectors, clauses = parse(expr)
        except (ValueError, IndexError, KeyError) as error:
            problems.append(f"{where}: cannot be read ({error})")
            continue
        for metric, matchers, _ in selectors:
            if not metric:
                problems.append(f"{where}: a selector names no metric")
                continue
            have = carried(metric)
            if have is None:
                missing.setdefault(metric, []).append(title)
                continue
            metrics.add(metric)
            for label in matchers:
                labels += 1
                if label not in have:
                    problems.append(f"{where}: {metric} has no label {label} (it has {', '.join(sorted(have))})")
            if "app" in have and matchers.get("app") != ("=~", "$app"):
                problems.append(f'{where}: {metric} has app but is not filtered by app=~"$app"')
        for keyword, names, (first, last) in clauses:
            scope = [(metric, carried(metric)) for metric, _, at in selectors if first <= at <= last and metric]
            scope = [(metric, have) for metric, have in scope if have is not None]
            for label in names:
                labels += 1
                lacking = [metric for metric, have in scope if label not in have]
                if lacking and (keyword not in ("group_left", "group_right") or len(lacking) == len(scope)):
                    problems.append(f"{where}: {keyword} ({label}): {', '.join(lacking)} has no label {label}")
        query = expr.replace("${app}", ".*").replace("$app", ".*")
        for variable, value in VARIABLES.items():
            query = query.replace(variable, value)
        try:
            answer = prometheus(base, "/api/v1/query", query=query)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
        if answer.get("status") != "success":
            problems.append(f"{where}: Prometheus refuses it: {answer.get('error')}")
            continue
        queries += 1
        if not answer["data"]["result"]:
            empty.append(title)
    return problems, missing, metrics, labels, queries, empty


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dashboard", required=True)
    parser.add_argument("--metrics", required=True, help="the live /metrics URL")
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--no-self-test", action="store_true")
    args = parser.parse_args()
    with open(args.dashboard, encoding="utf-8") as file:
        dashboard = json.load(file)
    problems, missing, metrics, labels, queries, empty = check(dashboard, args.metrics, args.prometheus)
    exprs = list(targets(dashboard))
    for metric, where in sorted(missing.items()):
        problems.insert(0, f"{metric}: not in the live /metrics nor recorded by Prometheus (used by "
                           f"{', '.join(sorted(set(where)))})")
    print(f"  dashboard: {len(exprs)} panel queries; {len(metrics)} metrics and {labels} label uses found live"
          + (f"; metrics missing: {', '.join(sorted(missing))}" if missing else "")
          + f"; {queries} answered with status success by Prometheus"
          + (f" ({len(empty)} with no series yet: {', '.join(sorted(set(empty)))})" if empty else ""))
    if not args.no_self_test:
        problems += self_test(args, dashboard)
    if problems:
        print("grafana-dashboard:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    return 0


def self_test(args, dashboard):
    """Two mutants, each refused naming its misspelt name: the check has teeth. The metric misspelt is the first one
    /metrics exports (not a recorded one); the label, the first matcher's label other than `app`."""
    def first(pick):
        for panel_index, panel in enumerate(dashboard["panels"]):
            for target in panel.get("targets", []):
                for metric, matchers, _ in parse(target.get("expr", ""))[0]:
                    name = pick(metric, matchers)
                    if name:
                        return panel_index, target["refId"], name
        raise SystemExit("grafana-dashboard: nothing to misspell in the dashboard")

    problems = []
    for kind, (panel_index, ref, old) in [
        ("metric", first(lambda metric, _: metric if metric and ":" not in metric else None)),
        ("label", first(lambda _, matchers: next((label for label in matchers if label != "app"), None))),
    ]:
        new = old + "_misspelt"
        mutant = json.loads(json.dumps(dashboard))
        target = next(t for t in mutant["panels"][panel_index]["targets"] if t["refId"] == ref)
        pattern = rf"\b{re.escape(old)}\b" + (r"(?=\s*(=~|!~|!=|=))" if kind == "label" else "")
        target["expr"] = re.sub(pattern, new, target["expr"], count=1)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(mutant, file)
        try:
            run = subprocess.run([sys.executable, __file__, "--dashboard", file.name, "--metrics", args.metrics,
                                  "--prometheus", args.prometheus, "--no-self-test"], capture_output=True, text=True)
        finally:
            os.unlink(file.name)
        if run.returncode == 0 or new not in run.stderr:
            problems.append(f"self-test: a copy with the {kind} {old} misspelt as {new} was not refused for it")
        else:
            print(f"  self-test: a copy with the {kind} {old} misspelt as {new} is refused, naming it")
    return problems


if __name__ == "__main__":
    sys.exit(main())
