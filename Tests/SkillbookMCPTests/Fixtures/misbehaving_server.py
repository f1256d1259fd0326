"""An MCP server that misbehaves in one way, chosen by the first argument, for the client's
failure tests: garbage, silent, exit, die_on_call, stubborn (ignores stdin EOF and SIGTERM);
garbage_on_call and silent_on_call answer the handshake and the tool list, then misbehave on a
call; die_on_first_call dies on its first call unless the file 'died' exists in its folder
(which it then makes), so a restarted server behaves; ok behaves (and refuses
'server/discover' as a server of the handshake era does); discover_legacy answers
'server/discover' listing only handshake revisions; input_required speaks 2026-07-28 and
answers every call with an 'input_required' result. An argument @FILE reads the mode from FILE at each start, so a test can
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
    if method == "server/discover" and mode in ("discover_legacy", "input_required"):
        versions = ["2025-06-18"] if mode == "discover_legacy" else ["2026-07-28"]
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "supportedVersions": versions, "capabilities": {"tools": {}}, "resultType": "complete"}})
    elif method == "tools/call" and mode == "input_required":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "resultType": "input_required", "inputRequests": {}, "requestState": "x"}})
    elif method == "initialize":
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
        text = "ok"
        if "ECHO_ENV" in os.environ:  # the variables named there, as the server sees them
            text = ",".join(f"{name}={os.environ.get(name, '-')}" for name in os.environ["ECHO_ENV"].split(","))
        send({"jsonrpc": "2.0", "id": message["id"], "result": {
            "content": [{"type": "text", "text": text}], "isError": False}})
    else:
        # A server of the handshake era: 'server/discover' (2026-07-28) is unknown to it.
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"Method not found: {method}"}})

if mode == "stubborn":
    while True:
        time.sleep(1)
