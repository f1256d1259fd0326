#!/usr/bin/env python3
"""Runs every ```console example of README.md and docs/*.md and compares what it prints.

Usage: scripts/check_console_examples.py [SKILLBOOK_BINARY]   (default .build/debug/skillbook)

A console block is a list of `$ COMMAND` lines, each followed by what it printed (stdout and
stderr together). Each block runs in a fresh workspace: a copy of the repository's Playbooks/ and
Skills/, an empty state directory (SKILLBOOK_HOME), TZ=Etc/UTC, NO_COLOR. `skillbook` on PATH is the
binary under test, then .build/venv/bin (the Python MCP SDK); other commands (`cat`) are the system's. HTML comments just before a block:

  <!-- setup: NAME -->            copy docs/examples/NAME/ over the workspace first
  <!-- not checked: REASON -->    skip the block (listed and counted at the end)

Before any other fenced block, `<!-- same as: PATH -->` requires the block to equal that file of
the repository (a file the examples use, shown in the doc).

Before comparing, both sides are normalised: ids (UUIDs and 8-hex-digit prefixes), ISO 8601
times, durations (`0.02s`), `"duration": 0.014`, dates in `runs` tables, pids, a fire key's epoch
milliseconds (`pulse#0@…`), and the workspace's path (shown as /home/ada/work). A line holding only `…` in the doc stands for any number of lines.
Exit status 1 when any example differs.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = "/home/ada/work"

NORMALISE = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<id>"),
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?"), "<time>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), "<date>"),
    (re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8}\b"), "<id>"),
    # an id of digits only (or letters only) is told by where it stands
    (re.compile(r"(?:(?<=run )|(?<=show )|(?<=approve )|(?<=decline ))[0-9a-f]{8}\b|^[0-9a-f]{8}(?=  )", re.M), "<id>"),
    (re.compile(r"\b\d+(\.\d+)?(ms|s)\b"), "<t>"),
    (re.compile(r'"duration": ?[0-9.]+'), '"duration": <t>'),
    (re.compile(r"pid=\d+"), "pid=<pid>"),
    (re.compile(r'"pid":"\d+"'), '"pid":"<pid>"'),
    (re.compile(r"(?<=#\d@)\d{10,}"), "<ms>"),
]


def normalise(text, workspace=None):
    if workspace:
        text = text.replace(workspace, WORK)
    for pattern, replacement in NORMALISE:
        text = pattern.sub(replacement, text)
    # Column alignment depends on the widths of what was normalised.
    return "\n".join(re.sub(r"(?<=\S) {2,}", "  ", line.rstrip()) for line in text.split("\n"))


def blocks(path):
    """(line, setup, skip reason, [(command, expected output)]) for each console block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        start = i
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        setup = skip = None
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("<!--"):
            comment = lines[j].strip()
            if m := re.match(r"<!-- setup: (\S+) -->", comment):
                setup = m.group(1)
            if m := re.match(r"<!-- not checked: (.*) -->", comment):
                skip = m.group(1)
            j -= 1
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        commands = []
        for line in body:
            if line.startswith("$ "):
                commands.append([line[2:], []])
            elif commands:
                commands[-1][1].append(line)
        found.append((start + 1, setup, skip, [(c, "\n".join(o)) for c, o in commands]))
        i += 1
    return found


def same_as_blocks(path):
    """(line, file, block text) for each fenced block preceded by `<!-- same as: FILE -->`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"\s*<!-- same as: (\S+) -->", line)
        if not m or i + 1 >= len(lines) or not lines[i + 1].strip().startswith("```"):
            continue
        end = i + 2
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        found.append((i + 2, m.group(1), "\n".join(lines[i + 2:end]) + "\n"))
    return found


def matches(expected, actual):
    pattern = []
    for line in expected.split("\n"):
        if line.strip() == "…":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(re.escape(line) + r"\n")
    return re.fullmatch("".join(pattern), actual + "\n") is not None


def run_block(binary, setup, commands):
    failures = []
    with tempfile.TemporaryDirectory(prefix="skillbook-doc-") as temp:
        temp = os.path.realpath(temp)
        workspace = os.path.join(temp, "work")
        os.makedirs(workspace)
        for folder in ("Playbooks", "Skills"):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(workspace, folder))
        if setup:
            shutil.copytree(os.path.join(ROOT, "docs", "examples", setup), workspace, dirs_exist_ok=True)
        bin_dir = os.path.join(temp, "bin")
        os.makedirs(bin_dir)
        os.symlink(os.path.abspath(binary), os.path.join(bin_dir, "skillbook"))
        environment = {
            # .build/venv (made by `make test`) has the Python MCP SDK the MCP examples' servers use.
            "PATH": ":".join([bin_dir, os.path.join(ROOT, ".build", "venv", "bin"), os.environ.get("PATH", "/usr/bin:/bin")]),
            "HOME": os.path.join(temp, "home"),
            "SKILLBOOK_HOME": os.path.join(workspace, "state"),
            "TZ": "Etc/UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        }
        for command, expected in commands:
            completed = subprocess.run(
                ["bash", "-c", command], cwd=workspace, env=environment, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
            actual = completed.stdout.decode("utf-8", "replace").rstrip("\n")
            want, got = normalise(expected), normalise(actual, workspace)
            if not matches(want, got):
                failures.append((command, want, got))
    return failures


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "skillbook")
    if not os.access(binary, os.X_OK):
        print(f"check_console_examples: no {binary}; build it first (swift build --product skillbook)")
        return 1
    files = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
    checked = commands_run = checked_files = 0
    skipped, failed = [], []
    for path in files:
        name = os.path.relpath(path, ROOT)
        for line, setup, skip, commands in blocks(path):
            if skip is not None:
                skipped.append(f"{name}:{line}: {skip}")
                continue
            if not commands:
                failed.append(f"{name}:{line}: a console block without a `$ ` command (mark it `<!-- not checked: … -->` or use ```text)")
                continue
            checked += 1
            commands_run += len(commands)
            for command, want, got in run_block(binary, setup, commands):
                failed.append(f"{name}:{line}: `$ {command}` printed (normalised):\n{got}\n--- the doc says (normalised):\n{want}\n")
        for line, file, text in same_as_blocks(path):
            try:
                same = open(os.path.join(ROOT, file), encoding="utf-8").read() == text
            except OSError:
                same = False
            checked_files += 1
            if not same:
                failed.append(f"{name}:{line}: the block is not the same as {file} (edit both together)")
    for entry in skipped:
        print(f"not checked: {entry}")
    print(
        f"console examples: {checked} blocks checked ({commands_run} commands), {len(skipped)} not checked; "
        f"{checked_files} blocks compared with their files; {len(failed)} failed")
    for entry in failed:
        print(f"FAILED {entry}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
