#!/bin/sh
# Runs one libFuzzer harness for a while on its committed seeds, then prints one summary line.
#   scripts/fuzz.sh BINARY NAME SECONDS [LIBFUZZER-FLAGS...]   run; the log is .build/fuzz/logs/NAME.log
#   scripts/fuzz.sh --summary NAME...      print the table of the last runs' summaries
#   scripts/fuzz.sh --totals NAME...       every run of each in its history, added up
# The summary: execs, the seconds it ran (a finding stops it early), execs per second, edges
# covered, features, findings, how long 10 M execs would take at that rate, and the CPU seconds.
# Seeds: Fuzz/Corpus/NAME (read, never written); new inputs: .build/fuzz/corpus/NAME; a crash,
# leak or timeout: .build/fuzz/findings/NAME/ (libFuzzer's crash-…, leak-…, timeout-… files).
# Leak checks are off: LeakSanitizer reports the Swift runtime's and Foundation's lazily made
# globals (48 bytes on the empty input) as leaks; crashes, traps and memory errors are what count.
set -eu
# -detect_leaks=0 stops libFuzzer's checks per input; this stops AddressSanitizer's own at exit
# (it reported a harness's lazily made global as a finding of the empty input). No allocation
# stacks and a 16 MB quarantine: AddressSanitizer spent a third of the expressions harness's time
# unwinding and storing the stack of every allocation and faulting in fresh pages (60 s on the
# same corpus: 34,346 → 47,474 execs); a finding is still caught, and running it again without
# these prints where its memory was allocated.
# FUZZ_INSTANCE=N runs one more process on the same corpus beside a running one (libFuzzer reloads
# the corpus directory and so takes the other's new inputs): its log, times and summary are
# NAME-N.*, its line goes to NAME.history with the others, so the execs add up.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:malloc_context_size=0:quarantine_size_mb=16"
export ASAN_OPTIONS
dir=.build/fuzz
if [ "$1" = "--summary" ]; then
    shift
    printf '%-16s %12s %8s %9s %8s %8s %8s %s\n' TARGET EXECS SECONDS EXECS/S COVERAGE FEATURES FINDINGS 10M-AT-RATE
    for name in "$@"; do cat "$dir/logs/$name.summary" 2>/dev/null || printf '%-16s (not run)\n' "$name"; done
    exit 0
fi
if [ "$1" = "--totals" ]; then
    # Every run on this machine's corpora, from the histories: runs, execs, CPU seconds, findings.
    shift
    printf '%-16s %6s %12s %9s %9s\n' TARGET RUNS EXECS CPU-S FINDINGS
    for name in "$@"; do
        awk -v name="$name" '{ runs++; execs += $3; findings += $8; for (i = 1; i <= NF; i++) if ($i == "(cpu") cpu += $(i + 1) }
            END { printf "%-16s %6d %12d %9d %9d\n", name, runs, execs, cpu, findings }' "$dir/logs/$name.history" 2>/dev/null ||
            printf '%-16s (not run)\n' "$name"
    done
    exit 0
fi
# Swift's own crash handler would take a failed oracle's abort first: it prints a backtrace for
# tens of seconds and then upsets AddressSanitizer; libFuzzer's handler writes the finding.
SWIFT_BACKTRACE=enable=no
export SWIFT_BACKTRACE
binary=$1 name=$2 seconds=$3
logs="$dir/logs/$name${FUZZ_INSTANCE:+-$FUZZ_INSTANCE}"
shift 3  # anything after SECONDS goes to libFuzzer (-dict=…, -use_value_profile=1)
# An input's time limit is wall time: under `nice -n 19` on busy cores an input can wait longer
# than 10 s for a core (a false timeout), so a niced run sets FUZZ_TIMEOUT higher.
mkdir -p "$dir/corpus/$name" "$dir/findings/$name" "$dir/logs"
# A harness's dictionary (function names, operators, keys), when it has one.
[ ! -f "Fuzz/Dictionaries/$name.dict" ] || set -- -dict="Fuzz/Dictionaries/$name.dict" "$@"
status=0
started=$(date +%s)
"$binary" "$dir/corpus/$name" "Fuzz/Corpus/$name" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
    -max_len=65536 -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$dir/findings/$name/${FUZZ_INSTANCE:+$FUZZ_INSTANCE-}" "$@" >"$logs.log" 2>&1 || status=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs.log" | tail -1)
coverage=$(grep -o 'cov: [0-9]*' "$logs.log" | tail -1 | cut -d' ' -f2)
features=$(grep -o 'ft: [0-9]*' "$logs.log" | tail -1 | cut -d' ' -f2)
ran=$(($(date +%s) - started))  # wall seconds, start-up and seed loading included
# The CPU seconds the harness had (user and system, all its threads): on shared cores, and under
# nice, the wall rate says more about the neighbours than about the harness.
times >"$logs.times"  # (in this shell: a pipeline's subshell has no children's times)
cpu=$(tail -1 "$logs.times" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); n += p[1] * 60 + p[2] } printf "%.0f", n }')
# This run's crashes, leaks, timeouts and out-of-memory inputs; not libFuzzer's slow-unit-… files
# (an input that took over 10 s of wall time: on cores busy with builds and a model, a niced
# harness waits that long for an input that takes 0.2 s alone).
# (an instance's files start with its number: each counts only its own)
if [ -n "${FUZZ_INSTANCE:-}" ]; then
    findings=$(find "$dir/findings/$name" -type f -newermt "@$started" -name "$FUZZ_INSTANCE-*" ! -name '*slow-unit-*' | wc -l)
else
    findings=$(find "$dir/findings/$name" -type f -newermt "@$started" ! -name '[0-9]*-*' ! -name 'slow-unit-*' | wc -l)
fi
rate=$(awk -v e="${execs:-0}" -v s="$ran" 'BEGIN { printf "%.0f", (s > 0 ? e / s : 0) }')
tenmillion=$(awk -v r="$rate" 'BEGIN { if (r > 0) printf "%.1f h", 1e7 / r / 3600; else print "?" }')
printf '%-16s %12s %8s %9s %8s %8s %8s %s (cpu %s s)\n' "$name" "${execs:-?}" "$ran" "$rate" "${coverage:-?}" "${features:-?}" "$findings" "$tenmillion" "$cpu" | tee "$logs.summary"
# Every run's line, dated, with the flags it had: runs that continue on one corpus add up here.
printf '%s %s%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(cat "$logs.summary")" "${*:+ flags: $*}" >>"$dir/logs/$name.history"
[ "$status" -eq 0 ] || { echo "skillbook: $name stopped with status $status: see $logs.log and $dir/findings/$name/" >&2; exit 1; }
