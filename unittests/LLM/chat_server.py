#!/usr/bin/env python3
"""A chat-completions server for the LLM client's tests.

Listens on 127.0.0.1 on a free port and prints the port on its first line.
The model named in a request chooses the answer (by prefix):

  ok...                  200 with a reply ("reply to: <last message>")
  fail500-then-ok...     500 on the first request for that model, then 200
  always500...           500 every time
  ratelimit-then-ok...   429 with "Retry-After: 1" first, then 200
  slow...                waits 3 s, then 200
  concurrent...          waits 0.2 s, then 200 (see in_flight below)
  malformed...           200 with a body that is not JSON
  nochoices...           200 with "choices": []
  nocontent...           200 with a choice whose message has no content
  unauthorized...        401 with an error message that quotes the bearer token
  huge...                200 with a 1 MiB body
  file:PATH              200 with the text of PATH as the reply
  cut:PATH               the same, with finish_reason "length" (cut at the
                         server's output limit)
  fail500-then-file:PATH 500 on the first request, then as file:PATH
  seq:P1,P2,...          the text of P1 for the first request, P2 for the
                         second, ..., the last one again after that
  route:PATH             the reply of the first rule of the JSON file PATH,
                         a list of {"contains": [s, ...], "reply": file},
                         whose strings all appear in the request's messages
                         (the file relative to PATH's folder); 400 when none

Requests to a path that does not end in /chat/completions get 404.

With --log FILE, each request is appended to FILE as one JSON line, before
it is answered: its path, its headers (lower-case names), its body (parsed
when it is JSON), and "in_flight", the requests for the same model being
answered at the time.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SEEN = {}
IN_FLIGHT = {}
LOG = [None]


def success(model, body):
    messages = body.get("messages") or [{}]
    last = messages[-1].get("content", "")
    return 200, {}, json.dumps({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": "reply to: " + last},
            "finish_reason": "stop",
        }],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7,
                  "total_tokens": 18},
    })


def reply_text(model, text, finish="stop"):
    return 200, {}, json.dumps({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": finish,
        }],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7,
                  "total_tokens": 18},
    })


def file_reply(model, path, finish="stop"):
    try:
        with open(path, encoding="utf-8") as f:
            return reply_text(model, f.read(), finish)
    except OSError as e:
        return error(400, "cannot read " + path + ": " + str(e))


def error(status, message, headers=None):
    return status, headers or {}, json.dumps(
        {"error": {"message": message, "type": "test_error"}})


def answer(model, body, headers, count):
    if model.startswith("ok"):
        return success(model, body)
    if model.startswith("file:"):
        return file_reply(model, model[len("file:"):])
    if model.startswith("cut:"):
        return file_reply(model, model[len("cut:"):], "length")
    if model.startswith("fail500-then-file:"):
        if count == 1:
            return error(500, "the server is overloaded")
        return file_reply(model, model[len("fail500-then-file:"):])
    if model.startswith("route:"):
        path = model[len("route:"):]
        with open(path) as f:
            rules = json.load(f)
        text = "\n".join(str(m.get("content", ""))
                         for m in body.get("messages", []))
        for rule in rules:
            if all(s in text for s in rule["contains"]):
                return file_reply(model, os.path.join(
                    os.path.dirname(path), rule["reply"]))
        return error(400, "no rule of " + path + " matches the request")
    if model.startswith("seq:"):
        paths = model[len("seq:"):].split(",")
        return file_reply(model, paths[min(count, len(paths)) - 1])
    if model.startswith("fail500-then-ok"):
        if count == 1:
            return error(500, "the server is overloaded")
        return success(model, body)
    if model.startswith("always500"):
        return error(500, "the server is overloaded")
    if model.startswith("ratelimit-then-ok"):
        if count == 1:
            return error(429, "rate limited", {"Retry-After": "1"})
        return success(model, body)
    if model.startswith("slow"):
        time.sleep(3)
        return success(model, body)
    if model.startswith("concurrent"):
        time.sleep(0.2)
        return success(model, body)
    if model.startswith("malformed"):
        return 200, {}, '{"choices": [{"message": '
    if model.startswith("nochoices"):
        return 200, {}, json.dumps({"id": "x", "choices": []})
    if model.startswith("nocontent"):
        return 200, {}, json.dumps(
            {"choices": [{"index": 0, "message": {"role": "assistant"}}]})
    if model.startswith("unauthorized"):
        token = headers.get("authorization", "")
        return error(401, "Incorrect API key provided: " + token)
    if model.startswith("huge"):
        return 200, {}, json.dumps({"choices": [{"message": {
            "role": "assistant", "content": "x" * (1 << 20)}}]})
    return error(400, "unknown test model " + model)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, headers, text):
        data = text.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length).decode("utf-8", "replace")
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw
        headers = {k.lower(): v for k, v in self.headers.items()}
        model = body.get("model", "") if isinstance(body, dict) else ""
        with LOCK:
            IN_FLIGHT[model] = IN_FLIGHT.get(model, 0) + 1
            SEEN[model] = SEEN.get(model, 0) + 1
            count = SEEN[model]
            if LOG[0]:
                LOG[0].write(json.dumps({
                    "path": self.path, "headers": headers, "body": body,
                    "in_flight": IN_FLIGHT[model]}) + "\n")
                LOG[0].flush()
        try:
            if not self.path.endswith("/chat/completions"):
                reply = error(404, "no such endpoint " + self.path)
            elif not isinstance(body, dict):
                reply = error(400, "the body is not a JSON object")
            else:
                reply = answer(model, body, headers, count)
        finally:
            with LOCK:
                IN_FLIGHT[model] -= 1
        self.send(*reply)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log")
    args = parser.parse_args()
    if args.log:
        LOG[0] = open(args.log, "a", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
