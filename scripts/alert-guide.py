#!/usr/bin/env python3
"""Holds the alert guide (MetricsAndAlerts.md) to the alerting rules (examples/prometheus-alerts.yml): every alert of
the rules has a `### NAME` section in the guide that quotes its expression exactly (in a ``` block; only runs of
whitespace may differ, since YAML folds a long expression's lines), names its severity (`page`, `ticket`) and when it
fires ("at once", "after 10 minutes"), and says what to do (prose beyond the quote); the guide has no section for an
alert the rules lack.

    alert-guide.py RULES GUIDE

Then it shows the check has teeth: for each alert, a copy of the guide with that alert's quote changed must be
refused, and so must a copy without its section. Needs PyYAML (the project's venv has it). Exits 1 on a finding.
"""
import re
import sys

import yaml

HEADING = re.compile(r"^(#{1,6}) (.*)$", re.M)
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```$", re.S | re.M)


def normal(text):
    return " ".join(text.split())


def when(duration):
    """The words the guide uses for a rule's `for`: absent, "at once"; `15m`, "after 15 minutes"."""
    if not duration:
        return "at once"
    number, unit = re.fullmatch(r"(\d+)([mh])", duration).groups()
    word = {"m": "minute", "h": "hour"}[unit]
    return f"after {number} {word}{'' if number == '1' else 's'}"


def alerts(rules_path):
    with open(rules_path, encoding="utf-8") as file:
        groups = yaml.safe_load(file)["groups"]
    return {rule["alert"]: rule for group in groups for rule in group["rules"] if "alert" in rule}


def sections(guide):
    """`### NAME` heading → the text up to the next heading of any level."""
    found = {}
    matches = list(HEADING.finditer(guide))
    for index, match in enumerate(matches):
        if len(match.group(1)) == 3:
            end = matches[index + 1].start() if index + 1 < len(matches) else len(guide)
            found[match.group(2).strip()] = guide[match.end():end]
    return found


def findings(rules, guide):
    problems = []
    documented = sections(guide)
    for name, rule in rules.items():
        section = documented.get(name)
        if section is None:
            problems.append(f"{name}: no '### {name}' section in the guide")
            continue
        quotes = [normal(block) for block in FENCE.findall(section)]
        if normal(str(rule["expr"])) not in quotes:
            problems.append(f"{name}: the guide does not quote its expression as the rules have it: "
                            + normal(rule["expr"])
                            + (f" (the guide quotes: {' | '.join(quotes)})" if quotes else " (no quote)"))
        severity = rule.get("labels", {}).get("severity")
        if severity and f"`{severity}`" not in section:
            problems.append(f"{name}: the guide does not say its severity `{severity}`")
        if when(rule.get("for")) not in section:
            problems.append(f"{name}: the guide does not say it fires {when(rule.get('for'))}")
        prose = normal(FENCE.sub("", section))
        if len(prose) < 120:
            problems.append(f"{name}: the guide says too little about what to do ({len(prose)} characters)")
    for name in documented:
        if re.fullmatch(r"Purser[A-Z]\w+", name) and name not in rules:
            problems.append(f"{name}: the guide has a section for an alert the rules do not have")
    return problems


def main(rules_path, guide_path):
    rules = alerts(rules_path)
    with open(guide_path, encoding="utf-8") as file:
        guide = file.read()
    problems = findings(rules, guide)
    if problems:
        print("alert-guide: the guide and the rules disagree:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(f"  {len(rules)} alerts: each quoted in the guide with its exact expression, severity and when it fires,"
          " and what to do")
    # Teeth: a changed quote, or a missing section, must be refused, naming the alert.
    documented = sections(guide)
    refused = 0
    for name in rules:
        section = documented[name]
        changed = FENCE.sub(lambda block: block.group(0).replace("\n```", " + 1\n```"), section, count=1)
        for mutant in (guide.replace(section, changed), guide.replace(f"### {name}" + section, "")):
            if not any(problem.startswith(name + ":") for problem in findings(rules, mutant)):
                print(f"alert-guide: a copy of the guide with {name}'s section changed or gone is not refused",
                      file=sys.stderr)
                return 1
            refused += 1
    print(f"  teeth: {refused} mutated copies of the guide (each alert's quote changed, each section removed)"
          " refused, each naming its alert")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
