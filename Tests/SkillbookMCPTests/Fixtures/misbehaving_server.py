"""An MCP server that misbehaves in one way, chosen by the first argument, for the client's
failure tests: garbage, silent, exit, die_on_call, stubborn (ignores stdin EOF and SIGTERM)."""

import json
import signal
import sys
import time

mode = sys.argv[1]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if mode == "exit":
    print("cannot find my configuration", file=sys.stderr)
    sys.exit(3)

if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if "id" not in message:
        continue
    if mode == "garbage":
        sys.stdout.write("Welcome to my server!\n")
        sys.stdout.flush()
        continue
    if mode == "silent":
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
            "serverInfo": {"name": "misbehaving", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": [
            {"name": "crash", "description": "Dies.", "inputSchema": {"type": "object"}}]}})
    elif method == "tools/call":
        if mode == "die_on_call":
            print("segfault (pretend)", file=sys.stderr)
            sys.stderr.flush()
            sys.exit(139)
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "content": [{"type": "text", "text": "ok"}], "isError": False}})

if mode == "stubborn":
    while True:
        time.sleep(1)
