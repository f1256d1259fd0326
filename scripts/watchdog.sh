#!/bin/bash
# Runs a test pass with a time limit, so that a hung test fails `make test` in minutes (saying
# where it hung) instead of running until CI gives up.
#
#   scripts/watchdog.sh SECONDS COMMAND [ARGUMENT…]
#
# The command's output goes to the terminal as it comes and to a log. Past SECONDS, this prints
# the tests that started and never finished, every thread's stack of the test process (when gdb
# is installed), the processes still running under it, then kills the pass and exits 124.
set -u
limit=$1
shift
log=$(mktemp "${TMPDIR:-/tmp}/skillbook-test-pass.XXXXXX")
trap 'rm -f "$log"' EXIT

"$@" > >(tee "$log") 2>&1 &
pass=$!
started=$(date +%s)
while kill -0 "$pass" 2>/dev/null; do
    sleep 2
    if (( $(date +%s) - started <= limit )); then continue; fi
    echo
    echo "watchdog: '$*' ran past ${limit} s: a test hangs."
    echo "watchdog: started and never finished:"
    python3 - "$log" <<'EOF'
import re, sys
started, finished = {}, set()
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\S+ Test (?:case passing .* to )?(\S+?)\(.* started\.", line)
    if m:
        started[m.group(1)] = line.strip()
    m = re.match(r"\S+ Test (\S+?)\(.* (passed|failed)", line)
    if m:
        finished.add(m.group(1))
for name, line in started.items():
    if name not in finished:
        print("    " + line)
EOF
    tests=$(pgrep -f 'PackageTests\.xctest' | head -1)
    if [ -n "$tests" ]; then
        echo "watchdog: processes under the test process $tests:"
        ps -o pid,ppid,etime,args --ppid "$tests" 2>/dev/null | cut -c1-200
        if command -v gdb >/dev/null 2>&1; then
            echo "watchdog: the threads of the test process:"
            gdb -p "$tests" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(Thread|#)' | cut -c1-220
        fi
        kill -9 "$tests" 2>/dev/null
    fi
    kill -9 "$pass" 2>/dev/null
    wait "$pass" 2>/dev/null
    exit 124
done
wait "$pass"
