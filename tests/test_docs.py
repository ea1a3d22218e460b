"""The docs' house rules: every doc in docs/ is under 400 lines (today's figures; their
history is in git), and no doc mentions work sessions or issue numbers."""
import re
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("*.md"))
MAX_LINES = 400

# "session" as a word, except the Go Text Protocol's own: a GTP session (a paragraph that
# names GTP or its `genmove`). Identifiers such as `gtp_session` are not words here.
SESSION = re.compile(r"\bsessions?\b", re.IGNORECASE)
GTP = re.compile(r"\b(gtp|genmove)\b", re.IGNORECASE)
ISSUE = re.compile(r"\b(?:issues?|tickets?)\s*#?\s*\d|(?<![\w&])#\d{1,4}\b(?![0-9a-fA-F])",
                   re.IGNORECASE)


def paragraphs(text: str):
    """(first line number, paragraph) for each run of non-blank lines."""
    start, lines = 0, []
    for number, line in enumerate(text.splitlines() + [""], 1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line)
        elif lines:
            yield start, "\n".join(lines)
            lines = []


def test_there_are_docs():
    assert DOCS


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_doc_under_400_lines(doc):
    length = len(doc.read_text(encoding="utf-8").splitlines())
    assert length < MAX_LINES, f"docs/{doc.name} has {length} lines; the most is " \
        f"{MAX_LINES - 1}: keep today's facts, drop history and repetition"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_doc_mentions_no_session_or_issue_number(doc):
    found = []
    for line, para in paragraphs(doc.read_text(encoding="utf-8")):
        if SESSION.search(para) and not GTP.search(para):
            found.append(f"line {line}: {SESSION.search(para).group(0)!r}")
        for m in ISSUE.finditer(para):
            found.append(f"line {line}: {m.group(0)!r}")
    assert not found, f"docs/{doc.name} mentions " + "; ".join(found)


@pytest.mark.parametrize("text, bad", [
    ("as agreed in the last session", True),
    ("Sessions 3-4 measured it", True),
    ("fixed in issue #64", True),
    ("see issue 61", True),
    ("closes #12.", True),
    ("the GTP session reads no clock", False),
    ("`gtp_session`, idle_in_transaction_session_timeout", False),
    ('fill "#2f6fde", the issue of a clock', False),
    ("[time a move](ai.md#time-a-move), seq #3f", False),
])
def test_the_patterns(text, bad):
    hit = bool((SESSION.search(text) and not GTP.search(text)) or ISSUE.search(text))
    assert hit is bad
