"""Serves a GGUF model over llama.cpp's OpenAI-compatible HTTP API (xllamacpp), on 127.0.0.1.

Usage: model_server.py MODEL.gguf --port-file FILE [--port N] [--threads N] [--ctx N] [--alias NAME]

Writes the URL it listens on (http://127.0.0.1:PORT) to --port-file once the model is loaded,
then serves until SIGTERM or SIGINT. Started and stopped by scripts/model.sh.
"""
import argparse
import os
import signal
import sys
import threading

import xllamacpp as xlc


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--alias", default="qwen2.5-coder-1.5b-instruct")
    args = parser.parse_args()

    params = xlc.CommonParams()
    params.model.path = args.model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.model_alias = {args.alias}
    params.warmup = False

    server = xlc.Server(params)
    address = server.listening_address
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as handle:
        handle.write(address + "\n")
    os.replace(tmp, args.port_file)
    print(f"model server: {address} ({args.threads} thread(s), context {args.ctx})", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(1.0):
        pass
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
