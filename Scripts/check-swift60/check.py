#!/usr/bin/env python3
"""Finds Swift syntax newer than Swift 6.0 (Xcode 16.0-16.2) in Swift files.

Usage: check.py FILE...   prints FILE:LINE:COLUMN: error: ... for each finding; exit 1 if any.

Why patterns: the toolchain here is newer than 6.0, and neither `-swift-version`, `-language-mode`
nor any `swift-frontend` flag turns its newer syntax off (`-print-supported-features` lists only
upcoming and experimental features; SE-0439's trailing commas and SE-0449's `nonisolated` types
are part of the language, not features a flag disables). So each source is read as Swift's lexer
reads it -- comments and string literals masked, string interpolations kept as code -- and the
code that is left is searched for the constructs below.

What it cannot see: syntax not listed here; standard-library API newer than the 6.0 toolchain's
(beyond `withTaskGroup` without `of:`); type-checker changes (inference 6.0 rejects); code inside
regex literals (none in this repository) is read as code.
"""

import re
import sys

# The keywords after which `[` starts an array literal, not a subscript.
LITERAL_AFTER = {
    "return", "in", "case", "throw", "try", "await", "else", "is", "as", "where", "yield", "repeat",
    "default", "guard", "if", "while", "for", "switch", "let", "var", "some", "any", "then", "do",
    "inout", "consume", "copy", "each",
}
# The attributes a 6.0 inheritance clause may hold.
CONFORMANCE_ATTRIBUTES_60 = {"unchecked", "preconcurrency", "retroactive"}
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def mask(text):
    """The text with comments and string literals' contents as spaces (newlines kept, so that
    lines and columns stay), interpolations `\\(...)` kept as code, and backticked identifiers
    kept. Swift's lexing: nested block comments, `"`, `\"\"\"`, raw `#"..."#` strings."""
    out = list(text)
    n = len(text)
    i = 0
    # Each entry: ("code", paren depth) inside an interpolation, or the string's (quotes, hashes).
    stack = []

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def in_code():
        return not stack or stack[-1][0] == "code"

    while i < n:
        c = text[i]
        if in_code():
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
                continue
            m = re.compile(r'(#*)("""|")').match(text, i)
            if m and (m.group(1) == "" or c == "#"):
                # A raw string's hashes are part of its delimiters; `#if` and the like are not strings.
                hashes = len(m.group(1))
                quotes = len(m.group(2))
                stack.append(("string", quotes, hashes))
                i = m.end()
                continue
            if stack and c == "(":
                stack[-1] = ("code", stack[-1][1] + 1)
            elif stack and c == ")":
                if stack[-1][1] == 0:
                    stack.pop()  # the interpolation's end: back in its string
                    i += 1
                    continue
                stack[-1] = ("code", stack[-1][1] - 1)
            i += 1
            continue
        # Inside a string literal.
        _, quotes, hashes = stack[-1]
        closing = '"' * quotes + "#" * hashes
        if text.startswith(closing, i):
            stack.pop()
            i += len(closing)
            continue
        escape = "\\" + "#" * hashes
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                blank(i, j)  # the backslash (and hashes) go; the parenthesis stays, as code
                stack.append(("code", 0))
                i = j + 1
                continue
            blank(i, min(j + 1, n))
            i = j + 1
            continue
        if text[i] != "\n":
            out[i] = " "
        i += 1
    return "".join(out)


def line_col(text, offset):
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def previous_token(code, index):
    """The significant text just before `index`: (char, word or None, newline crossed)."""
    j = index - 1
    newline = False
    while j >= 0 and code[j] in " \t\r\n":
        newline = newline or code[j] == "\n"
        j -= 1
    if j < 0:
        return "", None, newline
    if code[j].isalnum() or code[j] == "_":
        k = j
        while k >= 0 and (code[k].isalnum() or code[k] == "_"):
            k -= 1
        return code[j], code[k + 1 : j + 1], newline
    return code[j], None, newline


def next_significant(code, index):
    j = index
    while j < len(code) and code[j] in " \t\r\n":
        j += 1
    return j


def trailing_commas(code):
    """SE-0439 (Swift 6.1): a comma before `)`, `>`, or the `]` of a subscript or capture list.
    6.0 allows one only in array and dictionary literals."""
    found = []
    stack = []  # the kind of each open bracket
    for i, c in enumerate(code):
        if c in "([{":
            kind = "other"
            if c == "[":
                char, word, newline = previous_token(code, i)
                if char == "{":
                    kind = "brace-first"  # a capture list, or a closure's first array literal
                elif not newline and word is not None and word not in LITERAL_AFTER:
                    kind = "subscript"
                elif not newline and char in ")]?!\\." and char != "":
                    kind = "subscript"
                else:
                    kind = "literal"
            stack.append((c, kind))
        elif c in ")]}":
            if stack:
                stack.pop()
        elif c == ",":
            j = next_significant(code, i + 1)
            if j >= len(code):
                continue
            after = code[j]
            what = None
            if after == ")":
                what = "before ')' (a tuple, a parameter, argument or attribute list, an interpolation)"
            elif after == ">" and not code.startswith("->", j - 1):
                what = "before '>' (a generic parameter or argument list)"
            elif after == "]" and stack and stack[-1][0] == "[":
                kind = stack[-1][1]
                if kind == "subscript":
                    what = "before a subscript's ']'"
                elif kind == "brace-first":
                    k = next_significant(code, j + 1)
                    if code.startswith("in", k) and not (code[k + 2 : k + 3].isalnum() or code[k + 2 : k + 3] == "_"):
                        what = "before a capture list's ']'"
                    elif code.startswith("(", k):
                        what = "before a capture list's ']'"
            if what:
                found.append((i, "trailing comma " + what + " is Swift 6.1 (SE-0439)"))
    return found


def inheritance_attributes(code):
    """SE-0470 (Swift 6.2) isolated conformances, `: @MainActor P`, and SE-0458's `@unsafe` ones:
    an attribute in a type's or extension's inheritance clause other than 6.0's."""
    found = []
    header = re.compile(r"\b(class|struct|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)")
    not_a_type = {
        "func", "var", "let", "subscript", "override", "final", "required", "convenience", "init",
        "deinit", "public", "private", "fileprivate", "internal", "package", "open", "static",
        "nonisolated", "case", "typealias", "mutating", "async", "throws",
    }
    for m in header.finditer(code):
        if m.group(2) in not_a_type:
            continue
        j = m.end()
        depth = 0
        while j < len(code):
            ch = code[j]
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth -= 1
            elif ch in "{=;" and depth <= 0:
                break
            elif ch == ":" and depth <= 0:
                break
            j += 1
        if j >= len(code) or code[j] != ":":
            continue
        end = j + 1
        while end < len(code) and code[end] != "{" and not re.match(r"\bwhere\b", code[end : end + 6]):
            end += 1
        for a in re.finditer(r"@([A-Za-z_]\w*)", code[j + 1 : end]):
            if a.group(1) not in CONFORMANCE_ATTRIBUTES_60:
                found.append(
                    (j + 1 + a.start(), "'@%s' on a conformance is Swift 6.2 (SE-0470 isolated "
                     "conformances, SE-0458 @unsafe)" % a.group(1)))
    return found


def raw_identifiers(code):
    """SE-0451 (Swift 6.2): a backticked name that is not an identifier or keyword."""
    found = []
    for m in re.finditer(r"`([^`\n]*)`", code):
        name = m.group(1)
        if not IDENTIFIER.match(name):
            found.append((m.start(), "raw identifier `%s` is Swift 6.2 (SE-0451)" % name))
    return found


PATTERNS = [
    (re.compile(
        r"\bnonisolated(?!\s*\()\s+(?:(?:public|private|fileprivate|internal|package|open|final|indirect"
        r"|@\w+(?:\([^)]*\))?)\s+)*(?:class|struct|enum|actor|extension|protocol)\b"),
     "'nonisolated' on a type or extension is Swift 6.1 (SE-0449)"),
    (re.compile(r"@concurrent\b"), "'@concurrent' is Swift 6.2 (SE-0461)"),
    (re.compile(r"\bnonisolated\s*\(\s*nonsending\s*\)"), "'nonisolated(nonsending)' is Swift 6.2 (SE-0461)"),
    (re.compile(r"\[\s*(?:\d+|[A-Za-z_][\w.]*)\s+of\s+[\w\[(]"), "'[N of T]' (InlineArray) is Swift 6.2 (SE-0483)"),
    (re.compile(r"\bweak\s+let\b"), "'weak let' is Swift 6.2 (SE-0481)"),
    (re.compile(r"\bisolated\s+deinit\b"), "'isolated deinit' is Swift 6.2 (SE-0371)"),
    (re.compile(r"<\s*let\s+\w+\s*:|,\s*let\s+\w+\s*:\s*Int\s*[,>]"),
     "an integer generic parameter ('let N: Int') is Swift 6.2 (SE-0452)"),
    (re.compile(r"~\s*Escapable\b"), "'~Escapable' is Swift 6.2 (SE-0446)"),
    (re.compile(r"@(?:abi|unsafe|safe)\b"), "'@abi', '@unsafe' and '@safe' are Swift 6.2 (SE-0476, SE-0458)"),
    (re.compile(r"\bwith(?:Throwing)?TaskGroup\s*(?:\{|\((?!\s*of\s*:))"),
     "'withTaskGroup' without 'of:' is Swift 6.1 (SE-0442): Swift 6.0 requires the child task's type"),
]


def check(path, text):
    code = mask(text)
    found = []
    for pattern, message in PATTERNS:
        for m in pattern.finditer(code):
            found.append((m.start(), message))
    found += trailing_commas(code)
    found += inheritance_attributes(code)
    found += raw_identifiers(code)
    return ["%s:%d:%d: error: %s" % ((path,) + line_col(text, offset) + (message,)) for offset, message in sorted(found)]


def main(paths):
    findings = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            findings += check(path, f.read())
    for finding in findings:
        print(finding)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
