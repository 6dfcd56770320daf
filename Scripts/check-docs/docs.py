"""The work of Scripts/check-docs.sh (which says what is checked and why).

    python3 docs.py ROOT [--write] [--record RUN.json] [--list]

--record RUN.json makes Benchmarks/figures.json from a statebench --json report (with the date and
the commit); --write puts the current figures into every token and writes the generated parts of
the docs; --list prints every figure's key and text. Without them: checks, one line a finding.
"""

import datetime
import json
import os
import re
import subprocess
import sys

FIGURES = "Benchmarks/figures.json"
TOKEN = re.compile(r"<!--fig ([a-z0-9.-]+)-->(.*?)<!--/fig-->", re.S)
# The files whose words are read: the docs a reader of the package is given, the scripts and the
# manifest. CHANGELOG.md is history: its figures are each release's own.
DOCS = ["README.md", "Documentation", "Examples", "Benchmarks/README.md", "Sources"]
# Read for citations only, every file in them (this checker and its script excepted): the manifest,
# CI, the scripts, the benchmarks, the fuzzers and the tests.
CITED = ["Package.swift", ".ci", ".github", "Scripts", "Benchmarks", "Fuzz", "Tests"]
# What cites what the repository does not hold: the contract's file and sections, issue numbers,
# "the seed" (the SwiftUI modifier the rule was taken from).
CITATION = re.compile(r"\bSPEC\b|§|\b[Ii]ssues? #?\d|\b[Tt]he seed\b|\.\./shared")
# A measured figure written outside a token: a ratio, a time in microseconds, a rate of operations,
# a time in milliseconds or a size in MiB with a fraction or as a range (whole milliseconds and MiB
# are settings and limits: a 50 ms poll, a 1 MiB window), and a sample's count of lines.
_N = r"\d(?:[\d,]*\d)?"
STRAY = re.compile(rf"{_N}(?:\.\d+)?(?:–{_N}(?:\.\d+)?)?(?:×| ?µs\b| ?(?:ops|saves)/s\b)"
                   rf"|{_N}(?:\.\d+–{_N}(?:\.\d+)?|–{_N}(?:\.\d+)?|\.\d+) ?(?:ms|MiB)\b"
                   # a sample's line count, as Scripts/count-glue.sh gives it
                   r"|(?<!over )(?<!than )(?<!most )\b\d+\**,? (?:lines of )?(?:app|mail|recipes|wiring|glue)\b")
GENERATED = {
    "docc articles": "Documentation/Development.md",
    "latest run": "Benchmarks/README.md",
}


def files(root, tops, suffixes=None):
    for top in tops:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d not in ("__pycache__",)
                                   and not d.endswith(".xcodeproj") and not os.path.islink(os.path.join(folder, d)))
            for name in sorted(names):
                if suffixes is None or os.path.splitext(name)[1] in suffixes:
                    yield os.path.relpath(os.path.join(folder, name), root)


# MARK: - Figures

def slug(text):
    text = text.lower().replace("→", " to ").replace("µs", "us").replace("×", "x")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def number(value, unit):
    if value is None:
        return "–"
    if value == 0:
        return f"0 {unit.replace('/op', '')}"
    if unit in ("×", "x"):
        return f"{round(value):,}×" if value >= 10 else f"{value:.2f}×"
    if unit == "ops/s":
        return f"{round(value):,} ops/s"
    if unit in ("µs/op", "µs"):
        return (f"{round(value):,}" if value >= 100 else f"{value:.3g}") + " µs"
    if unit == "ms":
        if value < 1:
            return f"{value:.2g} ms"
        return (f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 1000 else f"{round(value):,}") + " ms"
    if unit == "MiB":
        return f"{value:.2f} MiB"
    if unit == "/s":
        return f"{value:.1f} /s"
    return f"{value:g} {unit}"


def statebench_figures(root):
    """{key: text} of the recorded run, and the run's record."""
    with open(os.path.join(root, FIGURES), encoding="utf-8") as file:
        record = json.load(file)
    report = record["report"]
    found = {
        "run.date": record["date"],
        "run.machine": "{cores} cores ({cpu}), {memory:g} GiB, {system}, SQLite {sqlite}".format(
            cores=report["machine"]["cores"], cpu=report["machine"]["cpu"], memory=report["machine"]["memoryGiB"],
            system=report["machine"]["system"], sqlite=report["machine"]["sqlite"]),
    }
    for figure in report["figures"]:
        key, unit, kind = slug(figure["operation"]), figure["unit"], figure["rawName"]
        names = {"raw": ("statestore", "raw"), "sqlite3": ("statectl", "sqlite3"), "polling": ("notifications", "polling"),
                 "host": (None, None)}[kind]
        if names[0] is None:
            found[key] = number(figure["subject"], unit)
            continue
        found[f"{key}.{names[0]}"] = number(figure["subject"], unit)
        found[f"{key}.{names[1]}"] = number(figure["raw"], unit)
        ratio = figure["subjectOverRaw"]
        if kind == "polling" and ratio:
            ratio = 1 / ratio
        found[f"{key}.ratio"] = number(ratio, "×")
        if figure.get("file") is not None:
            found[f"{key}.file"] = number(figure["file"], unit)
            found[f"{key}.ratio-file"] = number(figure["subjectOverFile"], "×")
    for target in report["targets"]:
        key = "target." + slug(target["figure"])
        found[key] = number(target["measured"], target["unit"])
        limit = f"{target['limit']:.3g}"
        found[key + ".limit"] = {"atLeast": "≥", "atMost": "≤"}.get(target["bound"], target["bound"]) + " " + \
            (limit + "×" if target["unit"] == "×" else f"{limit} {target['unit']}")
        found[key + ".met"] = {True: "yes", False: "no", None: "not measured"}[target["met"]]
    met = [target for target in report["targets"] if target["met"]]
    unmet = ["{figure} {limit}: {measured}".format(figure=target["figure"],
                                                  limit=found["target." + slug(target["figure"]) + ".limit"],
                                                  measured=found["target." + slug(target["figure"])])
             for target in report["targets"] if target["met"] is False]
    found["targets.met"] = f"{len(met)} of {len(report['targets'])}"
    found["targets.unmet"] = "; ".join(unmet) or "none"
    return found, record


def glue_figures(root):
    """The sample apps' counts, as Scripts/count-glue.sh prints them now: glue.SAMPLE.KIND (app,
    wiring, glue) and glue.SAMPLE.REGION for each named region of wiring (SAMPLE in lower case)."""
    output = subprocess.run(["bash", "Scripts/count-glue.sh"], cwd=root, capture_output=True, text=True).stdout
    found = {}
    for sample, app, wiring, glue in re.findall(r"^Examples/(\w+): app (\d+), wiring (\d+), glue (\d+) lines$",
                                                output, re.M):
        sample = sample.lower()
        found.update({f"glue.{sample}.app": app, f"glue.{sample}.wiring": wiring, f"glue.{sample}.glue": glue})
    for sample, count, name in re.findall(r"^Examples/(\w+)/\S+\s+wiring\s+(\d+)\s+(.+\S)\s*$", output, re.M):
        found[f"glue.{sample.lower()}.{slug(name)}"] = count
    return found


def all_figures(root):
    figures, record = statebench_figures(root)
    figures.update(glue_figures(root))
    return figures, record


def record_run(root, report_path):
    with open(report_path, encoding="utf-8") as file:
        report = json.load(file)
    report["machine"].pop("statectl", None)  # a path on the machine that ran it
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                            text=True).stdout.strip()
    record = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"), "commit": commit,
              "command": "swift run -c release statebench --json", "report": report}
    with open(os.path.join(root, FIGURES), "w", encoding="utf-8") as file:
        json.dump(record, file, indent=2, ensure_ascii=False, sort_keys=True)
        file.write("\n")


# MARK: - Generated parts

def catalogs(root):
    """Every DocC catalog of Sources/, as a path from the root."""
    found = []
    for target in sorted(os.listdir(os.path.join(root, "Sources"))):
        folder = os.path.join(root, "Sources", target)
        if os.path.isdir(folder):
            found += [f"Sources/{target}/{name}" for name in sorted(os.listdir(folder)) if name.endswith(".docc")]
    return found


def docc_articles(root):
    lines = []
    for catalog in catalogs(root):
        folder = os.path.join(root, catalog)
        titles, order = {}, []
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".md"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as file:
                title = file.readline().strip()
            if title.startswith("# ``"):
                with open(os.path.join(folder, name), encoding="utf-8") as file:
                    order = re.findall(r"<doc:([A-Za-z0-9_-]+)>", file.read())
            else:
                titles[name[:-3]] = title[2:]
        ranked = sorted(titles, key=lambda name: (order.index(name) if name in order else len(order), name))
        lines.append(f"- `{catalog}`:")
        lines += [f"  - [{titles[name]}](../{catalog}/{name}.md)" for name in ranked]
    return "\n".join(lines)


def latest_run(root):
    """Benchmarks/README.md's tables of the recorded run."""
    figures, record = statebench_figures(root)
    report = record["report"]
    out = [f"The latest full run{' (--quick)' if report['machine'].get('quick') else ''}, {record['date']}, of commit "
           f"{record['commit']}:", f"{figures['run.machine']}, release build.", ""]
    kinds = [
        ("raw", "| operation | StateStore | raw | file | StateStore/raw | StateStore/file |",
         lambda f, k: [k + ".statestore", k + ".raw", k + ".file", k + ".ratio", k + ".ratio-file"]),
        ("sqlite3", "| command | statectl | sqlite3 | statectl/sqlite3 |",
         lambda f, k: [k + ".statectl", k + ".sqlite3", k + ".ratio"]),
        ("polling", "| change feed | notifications | polling | polling/notifications |",
         lambda f, k: [k + ".notifications", k + ".polling", k + ".ratio"]),
        ("host", "| live window (StateStoreHost, main actor) | measured |", lambda f, k: [k]),
    ]
    for kind, header, keys in kinds:
        rows = [figure for figure in report["figures"] if figure["rawName"] == kind]
        if not rows:
            continue
        out += [header, "|" + "---|" * (header.count("|") - 1)]
        for figure in rows:
            key = slug(figure["operation"])
            out.append("| " + figure["operation"] + " | " + " | ".join(figures.get(k, "–") for k in keys(figure, key))
                       + " |")
        out.append("")
    out += ["| target | measured | met |", "|---|---|---|"]
    for target in report["targets"]:
        key = "target." + slug(target["figure"])
        out.append(f"| {target['figure']} {figures[key + '.limit']} | {figures[key]} | {figures[key + '.met']} |")
    notes = [f"{figure['operation']}: {figure['note']}" for figure in report["figures"] if figure.get("note")]
    notes += [f"{target['figure']}: {target['note']}" for target in report["targets"] if target.get("note")]
    if notes:
        out += ["", "statebench's notes on this run:", ""] + [f"- {note}" for note in notes]
    return "\n".join(out)


def generated(root, name):
    return {"docc articles": docc_articles, "latest run": latest_run}[name](root)


# MARK: - Checking and writing

def check(root, write):
    findings = []
    figures, _ = all_figures(root)
    for name, path in GENERATED.items():
        full = os.path.join(root, path)
        with open(full, encoding="utf-8") as file:
            text = file.read()
        start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        if start not in text or end not in text:
            findings.append(f"{path}: no {start} … {end}")
            continue
        before, rest = text.split(start, 1)
        shown, after = rest.split(end, 1)
        wanted = "\n" + generated(root, name) + "\n"
        if shown != wanted:
            if write:
                with open(full, "w", encoding="utf-8") as file:
                    file.write(before + start + wanted + end + after)
            else:
                findings.append(f"{path}: the {name} are not what {FIGURES if name == 'latest run' else 'the catalogs'} "
                                "hold (Scripts/check-docs.sh --write)")
    for path in files(root, DOCS, {".md", ".swift"}):
        full = os.path.join(root, path)
        with open(full, encoding="utf-8") as file:
            text = file.read()
        if path.endswith(".md"):
            def substitute(match):
                key, shown = match.group(1), match.group(2)
                if key not in figures:
                    findings.append(f"{path}:{text[:match.start()].count(chr(10)) + 1}: no figure '{key}' "
                                    f"(Scripts/check-docs.sh --list)")
                    return match.group(0)
                if shown != figures[key]:
                    if not write:
                        findings.append(f"{path}:{text[:match.start()].count(chr(10)) + 1}: {key} is "
                                        f"{figures[key]}, not {shown} (Scripts/check-docs.sh --write)")
                    return f"<!--fig {key}-->{figures[key]}<!--/fig-->"
                return match.group(0)
            updated = TOKEN.sub(substitute, text)
            if write and updated != text:
                with open(full, "w", encoding="utf-8") as file:
                    file.write(updated)
            findings += [f"{path}:{line}: a token begins the line: Markdown reads a line that begins with <!-- as "
                         "HTML, and DocC drops it; begin the line with a word" for line in tokens_at_line_start(text)]
            if path != "Benchmarks/README.md":
                findings += [f"{path}:{line}: {figure!r}, a figure not from {FIGURES}: write it as "
                             "<!--fig KEY-->…<!--/fig-->" for line, figure in strays(text)]
    for path in list(files(root, DOCS, {".md", ".swift", ".plist", ".xcconfig"})) + list(files(root, CITED)):
        if path.startswith("Scripts/check-docs/") or path == "Scripts/check-docs.sh" or path.endswith(".h"):
            continue
        try:
            with open(os.path.join(root, path), encoding="utf-8") as file:
                lines = file.read().split("\n")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        cites = [(number_, match.group(0)) for number_, line in enumerate(lines, 1)
                 for match in [CITATION.search(line)] if match]
        findings += [f"{path}:{number_}: '{cited}' cites what the repository does not hold: say what it meant"
                     for number_, cited in cites]
    findings += ci_scripts(root)
    return findings


def tokens_at_line_start(text):
    """The lines outside fenced blocks where a token comes first (after indentation, a list marker
    or a quote's >): CommonMark starts an HTML block there, which DocC leaves out of the page."""
    fence = False
    for number_, line in enumerate(text.split("\n"), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fence = not fence
            continue
        if not fence and re.match(r"^\s*(?:(?:[-*+]|\d+[.)]|>)\s+)*<!--fig ", line):
            yield number_


def strays(text):
    """(line, figure) of each ratio or time in µs outside a token, a fenced block and code."""
    masked = TOKEN.sub(lambda m: " " * len(m.group(0)), text)
    masked = re.sub(r"<!--.*?-->", lambda m: " " * len(m.group(0)), masked, flags=re.S)
    lines = masked.split("\n")
    fence = False
    for number_, line in enumerate(lines, 1):
        if re.match(r"^\s*(```|~~~)", line):
            fence = not fence
            continue
        if fence:
            continue
        line = re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)
        for match in STRAY.finditer(line):
            yield number_, match.group(0)


def ci_scripts(root):
    """The scripts .ci/run runs and those the first column of Development.md's CI table names: the same."""
    with open(os.path.join(root, ".ci/run"), encoding="utf-8") as file:
        run = file.read()
    with open(os.path.join(root, "Documentation/Development.md"), encoding="utf-8") as file:
        development = file.read()
    table = development.split("## What CI runs", 1)[-1].split("\n## ", 1)[0]
    # The commands it runs: a line's first word, continued lines joined (a script named as an argument,
    # to shellcheck say, is not run).
    ran = list(dict.fromkeys(re.findall(r"^\s*(Scripts/[\w-]+\.sh)", run.replace("\\\n", " "), re.M)))
    listed = list(dict.fromkeys(script for cell in re.findall(r"^\|([^|]*)\|", table, re.M)
                                for script in re.findall(r"`(Scripts/[\w-]+\.sh)`", cell)))
    findings = [f"Documentation/Development.md: .ci/run runs {script}, which 'What CI runs' does not list"
                for script in ran if script not in listed]
    findings += [f"Documentation/Development.md: 'What CI runs' lists {script}, which .ci/run does not run"
                 for script in listed if script not in ran]
    if not findings and ran != listed:
        findings.append("Documentation/Development.md: 'What CI runs' lists the scripts in another order than "
                        ".ci/run runs them: " + ", ".join(script.split("/")[-1] for script in ran))
    return findings


def main():
    arguments = sys.argv[1:]
    root = os.path.abspath(arguments[0])
    if "--record" in arguments:
        record_run(root, arguments[arguments.index("--record") + 1])
    if "--list" in arguments:
        figures, _ = all_figures(root)
        for key in sorted(figures):
            print(f"{key}\t{figures[key]}")
        return 0
    findings = check(root, "--write" in arguments or "--record" in arguments)
    for finding in findings:
        print("error: " + finding)
    if findings:
        return 1
    figures, record = all_figures(root)
    print(f"Docs: every quoted figure is the statebench run of {record['date']} ({FIGURES}) or the sample's "
          f"count; the DocC articles and CI's scripts listed as they are; nothing cited from outside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
