#!/usr/bin/env python3
"""Prints every SQL statement a release's ledger store runs, read from git history, one per `;`-ended block.

Usage: scripts/release-statements.py COMMIT sqlite|postgres > Tests/LedgerFixtures/previous-release-STORE.sql
(COMMIT: the last commit of the previous schema version, the code its replicas run during a rolling deploy.)

The statements are the string literals of the store's files and of the shared files beside them that begin with
SELECT, INSERT, UPDATE, DELETE or WITH (migrations left out). Interpolations become what they stand for: a bind (`?` on SQLite, `$n` on PostgreSQL; `(1...n).map`
of `$` numbers all n of them), a constant of the same file (or of another file of the module, written
`File.name`) inlined, the repeated text of `Array(repeating: "…",
count:)` once, a value inlined after a comparison, `LIMIT`, `,` or `(` a bind, and any other fragment (an optional
condition) left out; a statement that names a table or column at run time (inside quotes) is left out whole. PreviousReleaseTests compiles each against today's schema, so a migration that drops or renames
what the previous release still reads or writes fails before a rolling deploy would.
"""
import re
import subprocess
import sys

KEYWORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def literals(source):
    """(text, is_multiline) of every string literal, interpolations kept as written."""
    found, i = [], 0
    while i < len(source):
        if source.startswith('"""', i):
            end = source.index('"""', i + 3)
            while source[end - 1] == "\\":
                end = source.index('"""', end + 3)
            body = source[i + 3:end]
            lines = body.split("\n")[1:]
            indent = len(lines[-1]) if lines and not lines[-1].strip() else 0
            text = "\n".join(line[indent:] for line in lines[:-1])
            found.append(text.replace("\\\n", ""))
            i = end + 3
        elif source[i] == '"':
            j, depth = i + 1, 0
            while j < len(source):
                if source.startswith("\\(", j):
                    depth += 1
                    j += 2
                    continue
                if depth and source[j] == "(":
                    depth += 1
                elif depth and source[j] == ")":
                    depth -= 1
                elif not depth and source[j] == "\\":
                    j += 2
                    continue
                elif not depth and source[j] in '"\n':
                    break
                j += 1
            found.append(source[i + 1:j])
            i = j + 1
        elif source.startswith("//", i):
            i = source.index("\n", i)
        else:
            i += 1
    return found


def interpolations(text):
    """(start, end, expression) of each `\\(…)` in text."""
    spans, i = [], 0
    while True:
        i = text.find("\\(", i)
        if i < 0:
            return spans
        depth, j = 1, i + 2
        while depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        spans.append((i, j, text[i + 2:j - 1]))
        i = j


def constants_of(source):
    """The string constants of a file (`let name = "…"`, on the same line or the next, or a multi-line literal)."""
    constants = {}
    for match in re.finditer(r'let (\w+) =\s*"([^"\n]+)"', source):
        if "\\(" not in match.group(2):  # a string built at run time is a value (a bind), not SQL text
            constants[match.group(1)] = match.group(2)
    for match in re.finditer(r'let (\w+) =\s*"""\n(.*?)\n\s*"""', source, re.S):
        constants[match.group(1)] = " ".join(line.strip() for line in match.group(2).split("\n"))
    for match in re.finditer(r'let (\w+) = SplitSum\.parts\("([^"]*)"\)', source):  # an amount's two parts
        name, value = match.groups()
        constants[f"{name}.high"] = f"({value}) >> 32"
        constants[f"{name}.low"] = f"({value}) & 4294967295"
    return constants


def statements(source, store, shared_constants):
    constants = {**shared_constants, **constants_of(source)}
    for text in literals(source):
        if not text.strip().startswith(KEYWORDS):
            continue
        out, last, bind, dynamic = [], 0, 0, False
        for start, end, expression in interpolations(text):
            out.append(text[last:start])
            if text[:start].endswith('"'):
                dynamic = True  # a table or column named at run time (the erasure's search): nothing to compile
            repeated = re.search(r'repeating: "([^"]*)"', expression)
            name = expression.removeprefix("unescaped: ").removeprefix("Self.")
            numbered = re.search(r"\((\d+)\.\.\.(\d+)\)\.map", expression)
            split = re.search(r'SplitSum\.columns\("([^"]*)", as: "(\w+)"\)', expression)
            if split:  # SplitSum's two sums, as SplitSum.swift writes them
                value, alias = split.groups()
                out.append(
                    f"CAST(SUM(({value}) >> 32) AS BIGINT) AS {alias}_high, "
                    f"CAST(SUM(({value}) & 4294967295) AS BIGINT) AS {alias}_low")
            elif numbered and store == "postgres":
                first, count = int(numbered.group(1)), int(numbered.group(2))
                out.append(", ".join(f"${n}" for n in range(first, count + 1)))
                bind = count
            elif repeated:
                piece = repeated.group(1)
                if store == "postgres":
                    bind += piece.count("?")
                out.append(piece)
            elif text[:start].rstrip().endswith("IN ("):
                bind += 1
                out.append("?" if store == "sqlite" else f"${bind}")
            elif name in constants:
                out.append(constants[name])
            elif store == "sqlite" and re.search(r"(<|>|=|LIMIT|,|\()\s*$", text[:start]):
                out.append("?")  # a value inlined as an integer (shared SQL such as retention's)
            elif store == "postgres" and not expression.startswith("unescaped:"):
                bind += 1
                out.append(f"${bind}")
            else:
                out.append("")
            last = end
        out.append(text[last:])
        if not dynamic:
            yield "".join(out).strip()


def main():
    commit, store = sys.argv[1], sys.argv[2]
    folder = {"sqlite": "Sources/PurserStorage/SQLite/", "postgres": "Sources/PurserStorage/Postgres/"}[store]
    # The store's own files, and the shared ones beside them (SQL both stores run, such as the health query).
    shared = [f for f in git("ls-tree", "--name-only", commit, "Sources/PurserStorage/").split() if f.endswith(".swift")]
    files = [f for f in git("ls-tree", "-r", "--name-only", commit, folder).split() + shared if "Migration" not in f]
    print(f"-- Every statement of the {store} ledger store at {git('log', '-1', '--format=%h (%cs)', commit).strip()},")
    print(f"-- printed by scripts/release-statements.py {commit} {store}.")
    latest = {}
    for name, path in (("sqlite", "SQLite/SQLiteLedgerStore"), ("postgres", "Postgres/PostgresLedgerStore")):
        listing = git("show", f"{commit}:Sources/PurserStorage/{path}+Migrations.swift")
        latest[name] = max(int(v) for v in re.findall(r"^\s*\(\s*(\d+),", listing, re.M))
    print(f"-- schema: sqlite {latest['sqlite']}, postgres {latest['postgres']}")
    # Constants of every file of the module by `File.name` (`APIKeySQL.columns` of Keys/APIKeySQL.swift).
    module = git("ls-tree", "-r", "--name-only", commit, "Sources/PurserStorage/").split()
    shared_constants = {}
    for path in (f for f in module if f.endswith(".swift")):
        stem = path.rsplit("/", 1)[-1].removesuffix(".swift")
        for name, value in constants_of(git("show", f"{commit}:{path}")).items():
            shared_constants[f"{stem}.{name}"] = value
    seen = set()
    for path in sorted(files):
        for statement in statements(git("show", f"{commit}:{path}"), store, shared_constants):
            if statement in seen:
                continue
            seen.add(statement)
            print(f"\n-- {path.rsplit('/', 1)[-1]}\n{statement};")


main()
