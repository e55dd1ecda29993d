#!/usr/bin/env python3
"""Runs a command with unittests/LLM/chat_server.py listening.

    with_chat_server.py [--log FILE] -- <command> [args...]

Starts the server on a free port of 127.0.0.1, runs the command with
AUTOPROF_LLM_BASE_URL=http://127.0.0.1:<port>/v1 in its environment, stops
the server and exits with the command's exit status.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "..", "..", "..", "..", "unittests", "LLM",
                      "chat_server.py")


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit("usage: with_chat_server.py [--log FILE] -- <command>")
    split = args.index("--")
    options, command = args[:split], args[split + 1:]
    server_args = [sys.executable, SERVER] + options
    server = subprocess.Popen(server_args, stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        if not port.isdigit():
            sys.exit("the chat server did not start")
        env = dict(os.environ)
        env["AUTOPROF_LLM_BASE_URL"] = "http://127.0.0.1:%s/v1" % port
        return subprocess.call(command, env=env)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
