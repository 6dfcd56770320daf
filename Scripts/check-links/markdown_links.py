"""The Markdown half of Scripts/check-links.sh (which says what is checked and what is not).

    python3 markdown_links.py --root ROOT --symbols FILE --swiftui DIR --modules "A B C"
        [--symbol-links FILE.md ...] [--list-external] FILE.md ...

FILE.md paths are relative to ROOT. --symbols names a file of symbol paths, one a line
(`Type/member(label:)`), the symbol graphs' pathComponents joined with `/`; --swiftui a folder of
Swift sources whose `public` declarations are symbols too (a module the symbol graphs cannot
have). --symbol-links names the files whose ``double-backtick`` spans are DocC symbol links.
Prints one line a finding, FILE:LINE: ..., and a summary; exits 1 on any finding.
"""

import argparse
import difflib
import os
import re
import sys
import unicodedata
import urllib.parse

FENCE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
LIST_OR_QUOTE = re.compile(r"^\s*([-+*>]|\d+[.)])(\s|$)")
INLINE_LINK = re.compile(
    r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"  # the text, brackets nested once
    r"\(\s*(?P<destination><[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"  # the destination
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"  # a title
)
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*(<[^<>\n]*>|\S+)", re.M)
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*\"([^\"]*)\"", re.I)
HTML_ANCHOR = re.compile(r"<[A-Za-z][^>]*?\b(?:id|name)\s*=\s*\"([^\"]*)\"")
BARE_URL = re.compile(r"https?://[^\s<>()\[\]`]+[^\s<>()\[\].,;:!?'\"`*_]")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ESCAPABLE = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def units(text):
    """The file's text outside fenced code blocks and HTML comments, cut into units that inline
    Markdown cannot cross (paragraphs, headings, table rows): (first line number, text)."""
    text = re.sub(r"<!--.*?-->", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    unit, start, fence = [], 0, None
    for number, line in enumerate(text.split("\n"), 1):
        if fence:
            closing = FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence) \
                    and not closing.group(2).strip():
                fence = None
            continue
        opening = FENCE.match(line)
        if opening and not (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            if unit:
                yield start, "\n".join(unit)
            unit, fence = [], opening.group(1)
            continue
        alone = ATX.match(line) or line.lstrip().startswith("|") or LIST_OR_QUOTE.match(line)
        if not line.strip() or alone:
            if unit:
                yield start, "\n".join(unit)
            unit = []
            if alone:
                # A list item or quote goes on over the lines that follow it (a paragraph).
                if ATX.match(line) or line.lstrip().startswith("|"):
                    yield number, line
                else:
                    unit, start = [line], number
            continue
        if not unit:
            start = number
        unit.append(line)
    if unit:
        yield start, "\n".join(unit)


def code_spans(text):
    """Masks backslash escapes and code spans (CommonMark's rule: a run of n backticks up to the
    next run of exactly n) with blanks, newlines kept. Returns the masked text and the spans,
    as (offset, delimiter length, content)."""
    masked, spans, i = list(text), [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in ESCAPABLE:
            masked[i] = masked[i + 1] = " "
            i += 2
            continue
        if c != "`":
            i += 1
            continue
        run = len(text[i:]) - len(text[i:].lstrip("`"))
        j, close = i + run, -1
        while j < len(text):
            k = text.find("`", j)
            if k < 0:
                break
            length = len(text[k:]) - len(text[k:].lstrip("`"))
            if length == run:
                close = k
                break
            j = k + length
        if close < 0:
            i += run
            continue
        spans.append((i, run, text[i + run:close]))
        for k in range(i, close + run):
            if masked[k] != "\n":
                masked[k] = " "
        i = close + run
    return "".join(masked), spans


def inline_links(masked, start=0, end=None):
    """Each inline link or image in MASKED[start:end], and those in its text (an image in a
    link: `[![alt](picture.png)](page.md)`): (offset, destination)."""
    for m in INLINE_LINK.finditer(masked, start, len(masked) if end is None else end):
        yield m.start(), m.group("destination")
        yield from inline_links(masked, m.start(1), m.end(1))


def line_of(unit_start, text, offset):
    return unit_start + text.count("\n", 0, offset)


def plain_heading(text):
    """A heading's text as GitHub renders it, near enough for its anchor: code spans' contents,
    links' texts, no emphasis markers or HTML tags."""
    masked, spans = code_spans(text)
    out, last = [], 0
    for offset, run, content in spans:
        out.append(masked[last:offset])
        out.append("\0" * len(content.strip()))
        last = offset + run + len(content) + run
    out.append(masked[last:])
    rendered = "".join(out)
    rendered = re.sub(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)", r"\1", rendered)
    rendered = re.sub(r"<[^>]+>", "", rendered)
    rendered = re.sub(r"[*]+|(?<![\w\0])_+|_+(?![\w\0])", "", rendered)
    contents = iter(content.strip() for _, _, content in spans)
    return re.sub(r"\0+", lambda _: next(contents), rendered).strip()


def slug(heading):
    """GitHub's anchor for a heading (github-slugger): lower case; every character but letters,
    marks, numbers, connector punctuation (`_`), hyphens and spaces dropped; each space a hyphen."""
    kept = [c for c in heading.lower() if c in " -" or unicodedata.category(c)[0] in "LMN"
            or unicodedata.category(c) == "Pc"]
    return "".join(kept).replace(" ", "-")


class Anchors:
    """The anchors of each Markdown file, read once."""

    def __init__(self):
        self.cache = {}

    def of(self, path):
        if path not in self.cache:
            self.cache[path] = self.read(path)
        return self.cache[path]

    @staticmethod
    def read(path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        anchors, seen = set(), {}
        for _, unit in units(text):
            lines = unit.split("\n")
            headings = []
            for index, line in enumerate(lines):
                atx = ATX.match(line)
                if atx:
                    headings.append(atx.group(2) or "")
                elif index > 0 and SETEXT.match(line) and not LIST_OR_QUOTE.match(lines[0]) \
                        and not any(ATX.match(l) for l in lines[:index]):
                    headings.append(" ".join(l.strip() for l in lines[:index]))
                    break
            for heading in headings:
                base = slug(plain_heading(heading))
                count = seen.get(base, 0)
                seen[base] = count + 1
                anchors.add(base if count == 0 else f"{base}-{count}")
            anchors.update(HTML_ANCHOR.findall(code_spans(unit)[0]))
        return anchors


def swiftui_symbols(folder):
    """Symbol paths of the `public` declarations in FOLDER's Swift files: types, and members as
    DocC names them (`init(_:content:)`, `body`), under their type or the type they extend."""
    paths = set()
    if not folder or not os.path.isdir(folder):
        return paths
    declaration = re.compile(
        r"(?P<open>\{)|(?P<close>\})"
        r"|\b(?P<kind>struct|class|enum|protocol|actor|typealias|extension)\s+(?P<type>[A-Za-z_][\w.]*)"
        r"|\b(?P<member>func|init|subscript|var|let|case)\b\s*(?P<name>[^\s(<:=]*)")
    for directory, _, names in os.walk(folder):
        for name in sorted(n for n in names if n.endswith(".swift")):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                source = f.read()
            # Comments and string literals blanked, so that their braces and words do not count.
            source = re.sub(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"",
                            lambda m: re.sub(r"[^\n]", " ", m.group(0)), source, flags=re.S)
            scopes, pending, depth = [], None, 0
            for m in declaration.finditer(source):
                line_start = source.rfind("\n", 0, m.start()) + 1
                modifiers = source[line_start:m.start()]
                public = re.search(r"\b(public|open)\b", modifiers) is not None
                if m.group("open"):
                    depth += 1
                    if pending:
                        scopes.append((depth, pending))
                        pending = None
                elif m.group("close"):
                    if scopes and scopes[-1][0] == depth:
                        scopes.pop()
                    depth -= 1
                elif m.group("kind"):
                    type_name = m.group("type").split(".")[-1]
                    if m.group("kind") == "extension":
                        pending = type_name
                    elif public:
                        prefix = "/".join(s for _, s in scopes)
                        full = f"{prefix}/{type_name}" if prefix else type_name
                        paths.add(full)
                        pending = full if m.group("kind") != "typealias" else None
                    else:
                        pending = "\0"  # a scope whose members are not public API
                elif m.group("member") and public and "\0" not in [s for _, s in scopes]:
                    member = m.group("member")
                    if member in ("func", "init", "subscript"):
                        member_name = member if member != "func" else m.group("name")
                        labels = parameter_labels(source, m.end())
                        if labels is None:
                            continue
                        member_name += "(" + "".join(label + ":" for label in labels) + ")"
                    else:
                        member_name = m.group("name")
                    prefix = "/".join(s for _, s in scopes)
                    paths.add(f"{prefix}/{member_name}" if prefix else member_name)
    return paths


def parameter_labels(source, offset):
    """The argument labels of the parameter list that starts after OFFSET (past a `?` and a
    generic clause), `_` for none; None when there is no list."""
    i = offset
    while i < len(source) and source[i] in " \t\n?!":
        i += 1
    if i < len(source) and source[i] == "<":
        depth = 0
        while i < len(source):
            depth += {"<": 1, ">": -1}.get(source[i], 0)
            i += 1
            if depth == 0:
                break
    if i >= len(source) or source[i] != "(":
        return None
    depth, j = 0, i
    while j < len(source):
        depth += {"(": 1, ")": -1}.get(source[j], 0)
        if depth == 0:
            break
        j += 1
    parameters, depth, current = [], 0, ""
    for c in source[i + 1:j].replace("->", "  "):  # not a generic clause's `>`
        if c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
        if c == "," and depth == 0:
            parameters.append(current)
            current = ""
        else:
            current += c
    if current.strip():
        parameters.append(current)
    labels = []
    for parameter in parameters:
        head = parameter.split(":", 1)[0]
        head = re.sub(r"@\w+(\([^)]*\))?", " ", head).split()
        if head:
            labels.append(head[0])
    return labels


def resolves(link, symbols, modules):
    """Whether a symbol link names a known symbol: `Type/member(label:)`, after an optional `/`
    and module name, each component without DocC's disambiguation suffix (`-swift.struct`,
    `-1a2b3`, `-(Int)->Bool`)."""
    text = link.strip().lstrip("/")
    components, current, depth = [], "", 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "/" and depth == 0 and current:
            components.append(current)
            current = ""
        else:
            current += c
    components.append(current)
    stripped = []
    for component in components:
        name = re.match(r"^([^(]*\([^)]*\))", component) if "(" in component[1:] else None
        stripped.append(name.group(1) if name else re.sub(r"(?<=.)-.*$", "", component))
    if len(stripped) == 1 and stripped[0] in modules:
        return True
    candidates = ["/".join(stripped)]
    if len(stripped) > 1 and stripped[0] in modules:
        candidates.append("/".join(stripped[1:]))
    return any(candidate in symbols for candidate in candidates)


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--root", required=True)
    arguments.add_argument("--symbols")
    arguments.add_argument("--swiftui")
    arguments.add_argument("--modules", default="")
    arguments.add_argument("--symbol-links", nargs="*", default=[])
    arguments.add_argument("--list-external", action="store_true")
    arguments.add_argument("files", nargs="*")
    options = arguments.parse_args()
    root = os.path.realpath(options.root)
    symbols = set()
    if options.symbols:
        with open(options.symbols, encoding="utf-8") as f:
            symbols = {line.strip() for line in f if line.strip()}
    symbols |= swiftui_symbols(options.swiftui)
    modules = set(options.modules.split())

    anchors = Anchors()
    findings, external = [], []
    counts = {"files": 0, "links": 0, "anchors": 0, "symbols": 0}

    def check_destination(file, line, destination):
        if destination.startswith("<") and destination.endswith(">"):
            destination = destination[1:-1]
        if not destination:
            findings.append(f"{file}:{line}: empty link destination")
            return
        if SCHEME.match(destination) or destination.startswith("//"):
            external.append(f"{file}:{line}: {destination}")
            return
        counts["links"] += 1
        path, _, anchor = destination.partition("#")
        path = urllib.parse.unquote(path.split("?", 1)[0])
        anchor = urllib.parse.unquote(anchor)
        if not path:
            target = os.path.join(root, file)
        elif path.startswith("/"):
            target = os.path.join(root, path.lstrip("/"))
        else:
            target = os.path.join(root, os.path.dirname(file), path)
        target = os.path.normpath(target)
        if os.path.commonpath([root, os.path.realpath(target)]) != root:
            findings.append(f"{file}:{line}: {destination}: outside the repository (GitHub cannot "
                            f"show it)")
            return
        if not os.path.exists(target):
            resolved = os.path.relpath(target, root)
            findings.append(f"{file}:{line}: {destination}: no such file or folder"
                            + (f" ({resolved})" if resolved != path else ""))
            return
        if not anchor or not os.path.isfile(target) or not target.endswith(".md"):
            return  # an anchor into a folder or a source file (`#L12`) is not checked
        if any(part.endswith(".docc") for part in os.path.relpath(target, root).split(os.sep)):
            return  # a DocC article: a file to GitHub, its anchors DocC's
        counts["anchors"] += 1
        known = anchors.of(target)
        if anchor not in known:
            near = difflib.get_close_matches(anchor, sorted(known), n=1)
            hint = f"; did you mean #{near[0]}?" if near else ""
            findings.append(f"{file}:{line}: {destination}: no heading with the anchor #{anchor} in "
                            f"{os.path.relpath(target, root)}{hint}")

    for file in options.files:
        counts["files"] += 1
        with open(os.path.join(root, file), encoding="utf-8") as f:
            text = f.read()
        for start, unit in units(text):
            masked, spans = code_spans(unit)
            for offset, destination in inline_links(masked):
                check_destination(file, line_of(start, masked, offset), destination)
            for m in REFERENCE_DEFINITION.finditer(masked):
                check_destination(file, line_of(start, masked, m.start()), m.group(1))
            for m in HTML_LINK.finditer(masked):
                check_destination(file, line_of(start, masked, m.start()), m.group(1))
            for m in AUTOLINK.finditer(masked):
                external.append(f"{file}:{line_of(start, masked, m.start())}: {m.group(1)}")
            # GitHub links a bare URL too: one outside the links and tags above.
            rest = re.sub(r"<[^<>\n]*>", lambda x: " " * len(x.group(0)), masked)
            rest = INLINE_LINK.sub(lambda x: " " * len(x.group(0)), rest)
            rest = REFERENCE_DEFINITION.sub(lambda x: " " * len(x.group(0)), rest)
            for m in BARE_URL.finditer(rest):
                external.append(f"{file}:{line_of(start, masked, m.start())}: {m.group(0)}")
            if file not in options.symbol_links:
                continue
            for offset, run, content in spans:
                if run != 2 or "`" in content or not content.strip():
                    continue  # code, not a symbol link
                counts["symbols"] += 1
                if not resolves(content, symbols, modules):
                    findings.append(f"{file}:{line_of(start, unit, offset)}: ``{content.strip()}``: not a "
                                    f"public symbol of {', '.join(sorted(modules))}")

    for finding in findings:
        print(finding)
    if options.list_external:
        for link in external:
            print(f"external (not fetched): {link}")
    print(f"{counts['files']} files: {counts['links']} relative links ({counts['anchors']} into a heading), "
          f"{counts['symbols']} symbol links; {len(external)} external links not fetched"
          f"{'' if options.list_external else ' (--list-external lists them)'}; "
          f"{len(findings)} broken")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
