"""A minimal Language Server Protocol client for the tests of `ndlc lsp`: frames messages,
waits for answers with a deadline (a server that hangs fails the test instead of stalling it),
and keeps the notifications it receives."""
import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, ndlc, root, timeout=60.0):
        self.proc = subprocess.Popen([ndlc, "lsp", "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.root = os.path.realpath(root)
        self.timeout = timeout
        self.next_id = 1
        self.buffer = b""
        self.notifications = []

    # -- sending
    def raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
        return self.wait_response(rid)

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    # -- receiving
    def read_message(self, deadline):
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                header = self.buffer[:end].decode()
                length = int(next(l.split(":")[1] for l in header.split("\r\n")
                                  if l.lower().startswith("content-length")))
                if len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4:end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from ndlc lsp within %.0f s" % self.timeout)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise EOFError("ndlc lsp closed its output (exit %s): %s" % (
                        self.proc.poll(), self.proc.stderr.read().decode()[-2000:]))
                self.buffer += chunk

    def wait_response(self, rid):
        deadline = time.monotonic() + self.timeout
        while True:
            m = self.read_message(deadline)
            if "method" in m and "id" not in m:
                self.notifications.append(m)
            elif m.get("id") == rid:
                return m

    def wait_diagnostics(self, uri, version=None):
        """The next publishDiagnostics for uri (of the given version, when one is given)."""
        deadline = time.monotonic() + self.timeout
        while True:
            for k, m in enumerate(self.notifications):
                p = m.get("params", {})
                if m["method"] == "textDocument/publishDiagnostics" and p["uri"] == uri and (
                        version is None or p.get("version") == version):
                    del self.notifications[:k + 1]
                    return p["diagnostics"]
            m = self.read_message(deadline)
            if "id" in m and "method" not in m:
                raise AssertionError("unexpected response %r" % m)
            self.notifications.append(m)

    # -- conveniences
    def uri(self, path):
        return "file://" + os.path.realpath(path)

    def initialize(self):
        r = self.request("initialize", {"processId": os.getpid(), "rootUri": self.uri(self.root),
                                        "capabilities": {}})
        self.notify("initialized", {})
        return r

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri(path), "languageId": "ndl", "version": version, "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": self.uri(path), "version": version},
                                               "contentChanges": [{"text": text}]})

    def at(self, method, path, line, character, **extra):
        params = {"textDocument": {"uri": self.uri(path)},
                  "position": {"line": line, "character": character}}
        params.update(extra)
        return self.request(method, params)

    def finish(self):
        """shutdown, exit; the exit code."""
        r = self.request("shutdown")
        assert r.get("result", "missing") is None, r
        self.notify("exit")
        return self.proc.wait(timeout=self.timeout)
