"""The work of Scripts/check-readme.sh (which says what is checked and why).

    python3 readme_statectl.py --statectl PATH [--write] README.md

Runs every `statectl` line of README.md's ```sh blocks and every `$ statectl` command of its
```console blocks, in the README's order, in one scratch folder (its own HOME and
XDG_STATE_HOME), with the folder of PATH first on PATH: a line fails on a non-zero exit status or
after TIMEOUT seconds; a console block's command fails when what it prints differs from what the
README shows, timestamps aside. Exports persist from line to line, as in one shell. Then checks
the exit-status list between README's `<!-- statectl exit statuses -->` markers against the one
`statectl help` prints, from the same table. `--write` puts help's list and what each console
command printed into README.md instead of failing on them.
Prints one line a finding; exits 1 on any.
"""

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIMEOUT = 60
FENCE = re.compile(r"^\s*(`{3,})\s*([\w-]*)\s*$")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
MARKERS = ("<!-- statectl exit statuses -->", "<!-- /statectl exit statuses -->")


def blocks(text):
    """The fenced blocks: (info string, first line number, lines)."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        fence, info, start = opening.group(1), opening.group(2), index + 1
        body = []
        index += 1
        while index < len(lines) and not (lines[index].strip().startswith(fence) and not lines[index].strip().strip("`")):
            body.append(lines[index])
            index += 1
        yield info, start + 1, body
        index += 1


def steps(text):
    """What to run, in order: (line number, command, expected output or None); an output's lines
    are text's lines from the command's line number on."""
    found = []
    for info, first, body in blocks(text):
        if info == "sh":
            for offset, line in enumerate(body):
                words = line.strip().split(maxsplit=1)
                if words and words[0] == "statectl":
                    found.append((first + offset, line.strip(), None))
        elif info == "console":
            command = None
            for offset, line in enumerate(body):
                if line.startswith("$ "):
                    if command:
                        found.append(command)
                    command = (first + offset, line[2:].strip(), [])
                elif command:
                    command[2].append(line)
            if command:
                found.append(command)
    return found


def normalized(output):
    lines = [TIMESTAMP.sub("<time>", line.rstrip()) for line in output.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_steps(found, statectl, readme):
    """The findings, and what each console command printed: {line number: output}."""
    findings, printed = [], {}
    if not found:
        return [f"{readme}: no statectl line in a ```sh or ```console block"], printed
    if not found[0][1].startswith("statectl demo"):
        findings.append(f"{readme}:{found[0][0]}: the first statectl line is not `statectl demo …`: "
                        "the lines are run on the store the demo leaves")
    with tempfile.TemporaryDirectory(prefix="readme-statectl-") as folder:
        environment = {
            "PATH": os.path.dirname(os.path.abspath(statectl)) + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.path.join(folder, "home"), "XDG_STATE_HOME": os.path.join(folder, "state"),
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"), "LANG": "C.UTF-8",
        }
        exports = os.path.join(folder, ".exports")
        with open(exports, "w") as file:
            file.write("")
        for number, command, expected in found:
            script = f"source {shlex.quote(exports)}\n{command}\nstatus=$?\nexport -p > {shlex.quote(exports)}\nexit $status\n"
            try:
                result = subprocess.run(["bash", "-c", script], cwd=folder, env=environment, capture_output=True,
                                        text=True, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                findings.append(f"{readme}:{number}: `{command}` still ran after {TIMEOUT} s: a line must end on "
                                "its own, with no app running")
                continue
            if result.returncode != 0:
                findings.append(f"{readme}:{number}: `{command}` exited {result.returncode}: "
                                + (result.stderr.strip() or result.stdout.strip())[:500])
                continue
            if expected is not None:
                printed[number] = result.stdout
            if expected is not None and normalized("\n".join(expected)) != normalized(result.stdout):
                diff = "\n".join(difflib.unified_diff(normalized("\n".join(expected)), normalized(result.stdout),
                                                      "README.md", "statectl", lineterm=""))
                findings.append(f"{readme}:{number}: what `{command}` prints is not what README.md shows "
                                f"(--write shows what it prints):\n{diff}")
    return findings, printed


def with_outputs(text, found, printed):
    """text with each console command's shown output replaced by what it printed."""
    lines = text.split("\n")
    for number, _, expected in reversed(found):
        if expected is None or number not in printed:
            continue
        output = printed[number].rstrip("\n").split("\n")
        lines[number:number + len(expected)] = output
    return "\n".join(lines)


def help_statuses(statectl):
    """statectl help's exit-status sentence, whitespace joined."""
    text = subprocess.run([statectl, "help"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"^Exit status: (.*?)\n\n", text, re.S | re.M)
    if not match:
        raise SystemExit("error: statectl help prints no 'Exit status:' paragraph")
    return "Exit status: " + " ".join(match.group(1).split())


def check_statuses(text, statectl, readme, write):
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    if start < 0 or end < start:
        return text, [f"{readme}: no exit-status list between {MARKERS[0]} and {MARKERS[1]}"]
    shown = " ".join(text[start + len(MARKERS[0]):end].split())
    expected = help_statuses(statectl)
    if shown == expected:
        return text, []
    if write:
        return text[:start + len(MARKERS[0])] + "\n" + expected + "\n" + text[end:], []
    return text, [f"{readme}: the exit statuses differ from statectl help's:\n  README: {shown}\n  help:   {expected}\n"
                  f"  (Scripts/check-readme.sh --write puts help's there)"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--statectl", required=True)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("readme")
    arguments = parser.parse_args()
    with open(arguments.readme, encoding="utf-8") as file:
        text = file.read()
    text, findings = check_statuses(text, arguments.statectl, arguments.readme, arguments.write)
    found = steps(text)
    ran, printed = run_steps(found, arguments.statectl, arguments.readme)
    if arguments.write:
        text = with_outputs(text, found, printed)
        with open(arguments.readme, "w", encoding="utf-8") as file:
            file.write(text)
        ran = [finding for finding in ran if "prints is not what" not in finding]
    findings += ran
    for finding in findings:
        print("error: " + finding)
    if findings:
        return 1
    print(f"{arguments.readme}: {len(found)} statectl lines run, "
          f"{sum(1 for step in found if step[2] is not None)} of their outputs as shown; "
          "the exit statuses as statectl help's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
