#!/usr/bin/env python3
"""Writes the linker's symbol ordering file for the shipped binary (scripts/startup.order).

It runs a release `skillbook` under callgrind for the commands people start most (`--version`,
`validate`, `list`, `skills`, `show`, `runs`, a 1-step run and the README's example), maps every
instruction executed in the binary to the function holding it (the binary's own symbol table),
and prints those functions, the ones that more commands run first. lld then places them side by
side at the start of `.text` (`--symbol-ordering-file`, see the Makefile), so that start-up
touches a few hundred KB of code instead of pages spread over 18 MB, each of which the kernel
maps with its neighbours (fault-around): fewer page faults and a smaller resident set.

A symbol that a later change renames or removes is skipped by the linker
(`--no-warn-symbol-ordering`); the layout then degrades slowly, never breaks. Regenerate with
`make startup-order` after large changes. Needs valgrind and binutils (Debian: apt-get install valgrind binutils).

usage: scripts/startup_order.py BINARY > scripts/startup.order
"""

import bisect
import os
import re
import shutil
import subprocess
import sys
import tempfile

ONE_STEP = """name: one-note
description: One note.
steps:
  - id: save
    skill: notes.create
    with: { title: "cold start", body: "one step" }
"""


def commands(work):
    playbook = os.path.join(work, "one-note.yaml")
    with open(playbook, "w") as file:
        file.write(ONE_STEP)
    state = ["--state", os.path.join(work, "state")]
    return [
        ["--version"],
        ["--help"],
        ["validate", "Playbooks"],
        ["list"],
        ["skills"],
        ["show", "hello-notes"],
        ["run", playbook] + state,
        ["run", "hello-notes"] + state,
        ["runs"] + state,
    ]


def functions(binary):
    """The binary's functions as sorted (address, name) pairs, from `nm`."""
    listing = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    table = []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            table.append((int(parts[0], 16), parts[2]))
    table.sort()
    return table


def number(text):
    return int(text, 16) if text.startswith("0x") else int(text)


def executed_addresses(profile, binary):
    """Instruction addresses callgrind saw executed in `binary` (its `--dump-instr=yes` format:
    `ob=` names the object, cost lines start with an address, or +/- a difference, or *; a number
    is hexadecimal with `0x`, decimal without)."""
    names, inside, last, found = {}, False, 0, set()
    with open(profile) as lines:
        for line in lines:
            named = re.match(r"c?ob=\((\d+)\) (.*)", line.strip())
            if named:
                names[named.group(1)] = named.group(2)
            if line.startswith("cob="):
                continue
            if line.startswith("ob="):
                compressed = re.match(r"ob=\((\d+)\)", line.strip())
                current = names.get(compressed.group(1)) if compressed else line[3:].strip()
                inside = current is not None and os.path.realpath(current) == binary
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            token = line.split()[0]
            if token[0] in "+-":
                difference = number(token[1:])
                last += difference if token[0] == "+" else -difference
            elif token != "*":
                last = number(token)
            if inside:
                found.add(last)
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    if shutil.which("valgrind") is None:
        sys.exit("startup_order: valgrind is not installed (Debian: apt-get install valgrind)")
    uses, first = {}, {}
    with tempfile.TemporaryDirectory() as work:
        # valgrind gives up on the DWARF of a Swift release binary: profile a copy without it
        # (same code, same addresses, same symbol table).
        binary = os.path.realpath(os.path.join(work, "skillbook"))
        subprocess.run(["strip", "--strip-debug", "-o", binary, sys.argv[1]], check=True)
        table = functions(binary)
        starts = [address for address, _ in table]
        for index, arguments in enumerate(commands(work)):
            profile = os.path.join(work, f"callgrind.{index}")
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={profile}", binary] + arguments,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if run.returncode != 0:
                sys.exit(f"startup_order: 'skillbook {' '.join(arguments)}' exited with {run.returncode}")
            for address in executed_addresses(profile, binary):
                slot = bisect.bisect_right(starts, address) - 1
                if slot < 0:
                    continue
                name = table[slot][1]
                uses[name] = uses.get(name, 0) + 1
                first.setdefault(name, (index, table[slot][0]))
    if not uses:
        sys.exit("startup_order: callgrind saw no instruction of the binary; nothing written")
    for name in sorted(uses, key=lambda name: (-uses[name], first[name])):
        print(name)
    print(f"startup_order: {len(uses)} functions", file=sys.stderr)


if __name__ == "__main__":
    main()
