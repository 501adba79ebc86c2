"""A tiny A2A 1.0 JSON-RPC server for the host's tests of bundles with serve.

It serves its card, answers SendMessage with a completed task whose artifact
is the text in capitals, and SendStreamingMessage with server-sent events
(task, working, a pause, artifact, completed). The text "crash" makes it exit
with status 3. With --pidfile it starts a child (sleep) and writes both pids,
so a test can see that the whole process group goes.

    python3 a2aserver.py --port 8080 [--pidfile FILE] [--delay SECONDS]
"""

import argparse
import json
import os
import subprocess
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

args = None


def card():
    return {
        "name": "pyshout",
        "description": "Turns text into capital letters, with a server of its own.",
        "version": "0.1.0",
        "supportedInterfaces": [
            {"url": "http://127.0.0.1:%d/" % args.port, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        ],
        "url": "http://localhost:%d/" % args.port,
        "protocolVersion": "0.3",
        "preferredTransport": "JSONRPC",
        "documentationUrl": "http://127.0.0.1:%d/docs" % args.port,
        "provider": {"organization": "agentnet tests", "url": "https://example.org/"},
        "capabilities": {"streaming": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "shout", "name": "Shout", "description": "Capitalize the text.", "tags": ["text"]}],
    }


def text_of(message):
    return "".join(p.get("text", "") for p in message.get("parts", []))


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *a):
        sys.stderr.write("a2aserver: " + (fmt % a) + "\n")

    def reply(self, status, body, ctype="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/.well-known/agent-card.json":
            self.reply(200, json.dumps(card()))
        elif self.path == "/docs":
            self.reply(200, "pyshout: send it text.\n", "text/plain")
        else:
            self.reply(404, "not found\n", "text/plain")

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        rid, method, params = req.get("id"), req.get("method"), req.get("params", {})
        msg = params.get("message", {})
        text = text_of(msg)
        if text == "crash":
            sys.stderr.write("a2aserver: crashing on request\n")
            sys.stderr.flush()
            os._exit(3)
        task_id, ctx_id = str(uuid.uuid4()), msg.get("contextId") or str(uuid.uuid4())
        artifact = {"artifactId": str(uuid.uuid4()), "name": "output", "parts": [{"text": text.upper()}]}
        if method == "SendMessage":
            task = {"id": task_id, "contextId": ctx_id, "history": [msg], "artifacts": [artifact],
                    "status": {"state": "TASK_STATE_COMPLETED"},
                    "metadata": {"forwarded_host": self.headers.get("X-Forwarded-Host", "")}}
            self.reply(200, json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"task": task}}))
            return
        if method == "SendStreamingMessage":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()

            def event(result):
                line = "data: " + json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\n\n"
                self.wfile.write(line.encode())
                self.wfile.flush()

            event({"task": {"id": task_id, "contextId": ctx_id, "history": [msg], "status": {"state": "TASK_STATE_SUBMITTED"}}})
            event({"statusUpdate": {"taskId": task_id, "contextId": ctx_id, "status": {"state": "TASK_STATE_WORKING"}}})
            time.sleep(args.delay)
            event({"artifactUpdate": {"taskId": task_id, "contextId": ctx_id, "artifact": artifact}})
            event({"statusUpdate": {"taskId": task_id, "contextId": ctx_id, "status": {"state": "TASK_STATE_COMPLETED"}}})
            self.close_connection = True
            return
        self.reply(200, json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}}))


def main():
    global args
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pidfile")
    p.add_argument("--delay", type=float, default=0.5)
    args = p.parse_args()
    if args.pidfile:
        child = subprocess.Popen(["sleep", "300"])
        with open(args.pidfile, "w") as f:
            f.write("%d %d\n" % (os.getpid(), child.pid))
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    sys.stderr.write("a2aserver: listening on %d\n" % args.port)
    sys.stderr.flush()
    srv.serve_forever()


if __name__ == "__main__":
    main()
