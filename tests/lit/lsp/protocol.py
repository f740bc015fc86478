"""ndlc lsp driven through its protocol alone: what an editor sees of a program (diagnostics at
the right range, quick fixes, hover, go to definition into the stdlib, completion, symbols,
formatting), and the bad input an editor may send (a malformed header, a body that is not
JSON, a request before initialize, an unknown method, a file outside the workspace, a document
that stops parsing halfway): each is answered and the server keeps serving."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import Client

ndlc, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
stdlib = os.path.join(os.path.dirname(__file__), "..", "..", "..", "stdlib")

GOOD = """;; A 4x4 mesh for the language server's tests.
(Topology (Mesh 4 4))
(RoutingAlgorithm DimensionOrder)
(FlowControlMethod Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 256bit)
(MessageCreationRate 1%)
;; The endpoint opposite the source.
(define-pattern (Opposite (s Endpoint)) (endpoint (- (endpoints) 1 (int s))))
(TrafficPattern Opposite)
"""
BAD = GOOD.replace("(FlowControlMethod", "(FlowControlMethd")
prog = os.path.join(work, "prog.ndl")
with open(prog, "w") as f:
    f.write(BAD)


def pos(text, needle, offset=0, nth=0):
    """The protocol position of needle's first character (+ offset) in text (ASCII)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def expect(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what.split("\n")[0])


c = Client(ndlc, work)

# Before initialize a request is refused, and the server is still there.
r = c.request("textDocument/hover", {"textDocument": {"uri": c.uri(prog)},
                                     "position": {"line": 0, "character": 0}})
expect(r.get("error", {}).get("code") == -32002, "a request before initialize: ServerNotInitialized")
caps = c.initialize()["result"]["capabilities"]
expect(caps["textDocumentSync"]["change"] == 1 and caps["hoverProvider"] and
       caps["definitionProvider"] and caps["documentFormattingProvider"], "capabilities")

# Diagnostics as ndlc check gives them: the misspelled form's name, 0-based.
c.open(prog, BAD)
diags = c.wait_diagnostics(c.uri(prog), 1)
line, col = pos(BAD, "FlowControlMethd")
expect(len(diags) == 1 and diags[0]["code"] == "unknown-form" and diags[0]["severity"] == 1 and
       diags[0]["range"] == {"start": {"line": line, "character": col},
                             "end": {"line": line, "character": col + len("FlowControlMethd")}},
       "unknown-form at %d:%d, as ndlc check reports it" % (line, col))
check = subprocess.run([ndlc, "check", prog], capture_output=True, text=True)
expect("prog.ndl:%d:%d: error: unknown form 'FlowControlMethd'" % (line + 1, col + 1) in check.stderr,
       "ndlc check names the same place")
expect("did you mean 'FlowControlMethod'?" in diags[0]["message"], "the hint is in the message")

# The quick fix replaces the name.
r = c.request("textDocument/codeAction", {"textDocument": {"uri": c.uri(prog)},
                                          "range": diags[0]["range"], "context": {"diagnostics": diags}})
edits = r["result"][0]["edit"]["changes"][c.uri(prog)]
expect(r["result"][0]["kind"] == "quickfix" and edits[0]["newText"] == "FlowControlMethod" and
       edits[0]["range"] == diags[0]["range"], "quick fix: Replace with 'FlowControlMethod'")

# Fixed: the diagnostics are cleared, for this version.
c.change(prog, GOOD, 2)
expect(c.wait_diagnostics(c.uri(prog), 2) == [], "the corrected document has no diagnostics")

# Hover: a form with its checked value; the topology with its size and diameter (a 4x4 mesh:
# 16 routers, diameter 2 (4 - 1) = 6).
h = c.at("textDocument/hover", prog, *pos(GOOD, "NetworkFrequency", 2))["result"]["contents"]["value"]
expect("clock of links and routers" in h and "checked: `NetworkFrequency = 50000000Hz`" in h,
       "hover on NetworkFrequency: summary and checked value\n" + h)
h = c.at("textDocument/hover", prog, *pos(GOOD, "Topology", 1))["result"]["contents"]["value"]
expect("16 routers" in h and "diameter 6" in h, "hover on Topology: 16 routers, diameter 6\n" + h)
h = c.at("textDocument/hover", prog, *pos(GOOD, "50MHz", 1))["result"]["contents"]["value"]
expect("exactly 50000000Hz" in h, "hover on 50MHz: its exact value")
h = c.at("textDocument/hover", prog, *pos(GOOD, "Opposite", 2, nth=1))["result"]["contents"]["value"]
expect("traffic pattern" in h and "The endpoint opposite the source." in h,
       "hover on a pattern's use: its kind and its comment")
h = c.at("textDocument/hover", prog, *pos(GOOD, "Wormhole", 1))["result"]["contents"]["value"]
expect("FlowControl" in h, "hover on an enum value names its type")

# Go to definition: a definition of this file, a parameter, a stdlib routing.
r = c.at("textDocument/definition", prog, *pos(GOOD, "Opposite", 1, nth=1))["result"]
expect(r["uri"] == c.uri(prog) and (r["range"]["start"]["line"], r["range"]["start"]["character"]) ==
       pos(GOOD, "Opposite"), "definition of Opposite: its define-pattern")
r = c.at("textDocument/definition", prog, *pos(GOOD, "(int s)", 5))["result"]
expect((r["range"]["start"]["line"], r["range"]["start"]["character"]) == pos(GOOD, "(s Endpoint)", 1),
       "definition of a parameter: its place in the signature")
r = c.at("textDocument/definition", prog, *pos(GOOD, "DimensionOrder", 3))["result"]
routing = os.path.realpath(os.path.join(stdlib, "routing.ndl"))
stdlib_line = next(k for k, l in enumerate(open(routing)) if l.startswith("(define-routing (DimensionOrder)"))
expect(r["uri"] == c.uri(routing) and r["range"]["start"]["line"] == stdlib_line,
       "definition of DimensionOrder: stdlib/routing.ndl line %d" % (stdlib_line + 1))

# Completion: forms at the top level, a form's values, units after a number.
def labels(text, needle, offset):
    c.change(prog, text, labels.version)
    labels.version += 1
    r = c.at("textDocument/completion", prog, *pos(text, needle, offset))["result"]
    return [i["label"] for i in r["items"]], r["items"]
labels.version = 3
names, _ = labels(GOOD + "(Flow", "(Flow", 5)
expect("FlowControlMethod" in names and "define-routing" in names, "completion of a form name")
names, _ = labels(GOOD.replace("(FlowControlMethod Wormhole)", "(FlowControlMethod W)"), "Method W", 8)
expect({"Wormhole", "StoreAndForward", "VirtualCutThrough"} <= set(names), "completion of enum values")
names, items = labels(GOOD.replace("50MHz", "50M"), "50M", 3)
mhz = next(i for i in items if i["label"] == "MHz")
expect(mhz["textEdit"]["newText"] == "50MHz", "completion of a unit after a number")
names, _ = labels(GOOD.replace("(TrafficPattern Opposite)", "(TrafficPattern Opp)"), "Pattern Opp", 11)
expect("Opposite" in names and "Uniform" in names, "completion of a pattern: defined and built in")

# Document symbols of a document that stops parsing halfway: the forms before the error, and a
# syntax error published for it.
broken = GOOD.replace("(NetworkFrequency 50MHz)", "(NetworkFrequency (50MHz)").replace(
    "(MessageCreationRate 1%)", "(MessageCreationRate 1%")
c.change(prog, broken, 20)
d = c.wait_diagnostics(c.uri(prog), 20)
expect(any(x["severity"] == 1 for x in d), "a document that fails to parse gets its errors")
r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": c.uri(prog)}})
syms = [s["name"] for s in r["result"]]
expect(syms[:3] == ["Topology", "RoutingAlgorithm", "FlowControlMethod"], "partial symbols: %s" % syms)

# Formatting gives ndlc fmt's layout.
messy = GOOD.replace("(Topology (Mesh 4 4))", "(Topology   (Mesh 4\n      4))")
c.change(prog, messy, 21)
with open(os.path.join(work, "messy.ndl"), "w") as f:
    f.write(messy)
want = subprocess.run([ndlc, "fmt", os.path.join(work, "messy.ndl")], capture_output=True, text=True).stdout
r = c.request("textDocument/formatting", {"textDocument": {"uri": c.uri(prog)},
                                          "options": {"tabSize": 2, "insertSpaces": True}})
expect(len(r["result"]) == 1 and r["result"][0]["newText"] == want and want != messy,
       "formatting: ndlc fmt's text")

# Bad input: each answered, the server still serving after it.
c.raw(b"Content-Type: application/json\r\n\r\n")
r = c.wait_response(None)
expect(r["error"]["code"] == -32700, "a header without Content-Length: ParseError")
body = b"{not json"
c.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
r = c.wait_response(None)
expect(r["error"]["code"] == -32700, "a body that is not JSON: ParseError")
r = c.request("textDocument/rename", {})
expect(r["error"]["code"] == -32601, "an unknown method: MethodNotFound")
r = c.request("textDocument/hover", {"textDocument": {"uri": c.uri(prog)}})
expect(r["error"]["code"] == -32602, "a hover without a position: InvalidParams")
r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///etc/hostname"}})
expect(r["error"]["code"] == -32602 and "outside the workspace" in r["error"]["message"],
       "a file outside the workspace: refused")
r = c.request("textDocument/documentSymbol",
              {"textDocument": {"uri": "file://" + os.path.realpath(os.path.join(stdlib, "topology.ndl"))}})
expect("result" in r and isinstance(r["result"], list), "a stdlib file not open: read from disk")
h = c.at("textDocument/hover", prog, *pos(messy, "NetworkFrequency", 2))
expect("checked" in h["result"]["contents"]["value"], "still serving after the bad input")

code = c.finish()
expect(code == 0, "shutdown then exit: exit code 0")

# exit without shutdown: exit code 1 (the protocol's rule).
c = Client(ndlc, work)
c.initialize()
c.notify("exit")
expect(c.proc.wait(timeout=60) == 1, "exit without shutdown: exit code 1")
