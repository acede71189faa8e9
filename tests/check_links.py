#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md resolves: the
file or folder exists and, where the link names a #anchor in a markdown page,
that page has a heading with that anchor (GitHub's rule for heading anchors).

  check_links.py ROOT      check ROOT/README.md and ROOT/docs/*.md
  check_links.py --self-test
                           check a made-up tree whose broken links are known,
                           so the checker is shown to fail where it should

Links inside code (fenced blocks, `spans`) are text, not links, and are
skipped; so are absolute URLs (https:, mailto:), which need a network.
Exit status: 0 all resolve, 1 a link is broken (each one printed), 2 usage."""
import pathlib
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import doc_pages  # noqa: E402 (found through the line above)

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"`[^`]*`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def slug(heading):
    """GitHub's anchor for a heading: link text kept, markup and punctuation
    dropped, lower case, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page):
    """Every heading anchor of a page; a repeated one gets -1, -2, ... as on
    GitHub."""
    seen, found = {}, set()
    for _, line in doc_pages.prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(root):
    """(links checked, ['page:line: target (why)' for each that does not
    resolve]) over root's pages."""
    root = pathlib.Path(root)
    checked, broken = 0, []
    for page, text in doc_pages.page_texts(root, broken):
        for number, line in doc_pages.prose_lines(text):
            for target in LINK.findall(CODE_SPAN.sub("", line)):
                if SCHEME.match(target):
                    continue
                checked += 1
                path, _, anchor = target.partition("#")
                linked = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(root)}:{number}: {target}"
                if not linked.exists():
                    broken.append(f"{where} (no such file)")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    broken.append(f"{where} (no heading #{anchor} in {linked.name})")
    return checked, broken


SELF_TEST_PAGES = {
    "README.md": """# Front page
## Two words
## Two words
[good file](docs/a.md) [good anchor](docs/a.md#a-page-with-code) [good dir](docs)
[second heading of a name](#two-words-1) ![image](docs/a.md) [web](https://example.com)
[missing file](docs/none.md) [missing anchor](docs/a.md#nowhere)
`[in a code span](docs/none.md)`
""",
    "docs/a.md": """# A page, with `code`!
[up](../README.md#front-page) [here](#a-page-with-code) [missing here](#front-page)
```
[in a fence](none.md)
```
""",
}
SELF_TEST_BROKEN = [
    "README.md:6: docs/none.md (no such file)",
    "README.md:6: docs/a.md#nowhere (no heading #nowhere in a.md)",
    "docs/a.md:2: #front-page (no heading #front-page in a.md)",
]


WORDS = doc_pages.Words(
    problem="broken link",
    all_good="every link resolves",
    some_wrong="{wrong} broken link(s)",
    self_test_good="the {wrong} broken links found, no others")


if __name__ == "__main__":
    sys.exit(doc_pages.run(__doc__, broken_links, SELF_TEST_PAGES, SELF_TEST_BROKEN, WORDS))
