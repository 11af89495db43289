#!/usr/bin/env python3
"""Extracts the Swift samples of the SDK's DocC articles (Sources/Purser/Purser.docc/*.md), so that a check can
compile every one of them as written: a sample that drifts from the API, or uses a name its page neither defines
nor links to, fails the build.

    guide-samples.py apple OUTDIR   articles whose samples use SwiftUI, UIKit or StoreKit: OUTDIR/ARTICLE/N.swift,
                                    each with every import of its page (a page's samples form one module), for
                                    scripts/check-storekit-interface.sh to type-check against Apple's interfaces
    guide-samples.py app OUTDIR     the app package of the other samples: OUTDIR/Package.swift (the page's manifest
                                    sample), OUTDIR/Tests/MyGameTests/ARTICLE-N.swift (samples that import Testing)
                                    and OUTDIR/Sources/MyGame/ARTICLE-N.swift (the rest), for
                                    scripts/check-sdk-guides.sh to build and run

Prints what it wrote; exits 1 when it finds nothing of the kind asked for (the check would have no teeth).
"""
import pathlib
import re
import sys

ARTICLES = pathlib.Path(__file__).resolve().parent.parent / "Sources/Purser/Purser.docc"
APPLE = {"SwiftUI", "UIKit", "StoreKit"}
FENCE = re.compile(r"^```swift\n(.*?)^```", re.S | re.M)
IMPORT = re.compile(r"^import (\w+)$", re.M)


def samples():
    """(article, index, code) for every Swift sample, in page order."""
    for page in sorted(ARTICLES.glob("*.md")):
        for index, match in enumerate(FENCE.finditer(page.read_text()), start=1):
            yield page.stem, index, match.group(1)


def main(kind, out):
    out = pathlib.Path(out)
    by_article = {}
    for article, index, code in samples():
        by_article.setdefault(article, []).append((index, code))
    written = []
    for article, blocks in by_article.items():
        imports = sorted({name for _, code in blocks for name in IMPORT.findall(code)})
        apple = bool(APPLE & set(imports))
        for index, code in blocks:
            if "let package = Package(" in code:
                if kind == "app":
                    target = out / "Package.swift"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(code)
                    written.append(target)
                continue
            if kind == "apple" and apple:
                body = IMPORT.sub("", code).strip("\n")
                target = out / article / f"{index}.swift"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("".join(f"import {name}\n" for name in imports) + "\n" + body + "\n")
                written.append(target)
            elif kind == "app" and not apple:
                folder = "Tests/MyGameTests" if "Testing" in IMPORT.findall(code) else "Sources/MyGame"
                target = out / folder / f"{article}-{index}.swift"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(code)
                written.append(target)
    for path in written:
        print(f"guide-samples: {path.relative_to(out)}")
    needed = ["Package.swift", "Tests/MyGameTests"] if kind == "app" else [""]
    for part in needed:
        if not any(str(path.relative_to(out)).startswith(part) for path in written):
            sys.exit(f"guide-samples: no {kind} sample ({part or 'any'}) in {ARTICLES}: the check would have no teeth")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("apple", "app"):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
