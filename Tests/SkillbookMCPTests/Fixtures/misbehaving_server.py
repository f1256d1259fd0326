"""An MCP server that misbehaves in one way, chosen by the first argument, for the client's
failure tests: garbage, silent, exit, die_on_call, stubborn (ignores stdin EOF and SIGTERM);
garbage_on_call and silent_on_call answer the handshake and the tool list, then misbehave on a
call; die_on_first_call dies on its first call unless the file 'died' exists in its folder
(which it then makes), so a restarted server behaves; ok behaves. An argument @FILE reads the mode from FILE at each start, so a test can
change how the next start of the same command behaves."""

import json
import os
import signal
import sys
import time

mode = sys.argv[1]
if mode.startswith("@"):
    with open(mode[1:]) as f:
        mode = f.read().strip()


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
        if mode == "garbage_on_call":
            sys.stdout.write("Traceback (most recent call last): oops\n")
            sys.stdout.flush()
            continue
        if mode == "silent_on_call":
            continue
        if mode == "die_on_first_call" and not os.path.exists("died"):
            open("died", "w").close()
            mode = "die_on_call"
        if mode == "die_on_call":
            print("segfault (pretend)", file=sys.stderr)
            sys.stderr.flush()
            sys.exit(139)
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "content": [{"type": "text", "text": "ok"}], "isError": False}})

if mode == "stubborn":
    while True:
        time.sleep(1)
