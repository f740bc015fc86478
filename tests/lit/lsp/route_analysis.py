"""The routing's analysis runs on a thread of its own (compiler/driver/lsp/RouteWorker.h): the
front end's diagnostics are published first, the analysis' when it ends, together with them;
requests are answered meanwhile; an edit before it ends drops its result; and the final
diagnostics are ndlc check's. With `timing`, prints the figures docs/editors.md gives."""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_client import Client

ndlc, work = sys.argv[1], sys.argv[2]
timing = len(sys.argv) > 3 and sys.argv[3] == "timing"
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def expect(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what)


# An 8x8 torus with one VC under dimension order: the analysis warns that it can deadlock.
src = os.path.join(root, "tests", "lit", "build", "deadlock_torus.ndl")
prog = os.path.join(work, "torus.ndl")
shutil.copy(src, prog)
text = open(prog).read()
c = Client(ndlc, work)
c.initialize()
uri = c.uri(prog)
c.open(prog, text)
first = c.wait_diagnostics(uri, 1)
expect(not any(d["code"] == "deadlock-possible" for d in first),
       "the front end's diagnostics come first, without the routing's")
second = c.wait_diagnostics(uri, 1)
warn = [d for d in second if d["code"] == "deadlock-possible"]
expect(len(warn) == 1 and warn[0]["severity"] == 2 and all(d in second for d in first),
       "then the analysis' warning, with the front end's diagnostics")
check = subprocess.run([ndlc, "check", prog], capture_output=True, text=True).stderr
line, col = warn[0]["range"]["start"]["line"], warn[0]["range"]["start"]["character"]
expect("torus.ndl:%d:%d: warning: Torus 8 8 with 1 virtual channel can deadlock" % (line + 1, col + 1)
       in check, "at the place ndlc check names (%d:%d)" % (line + 1, col + 1))

# An edit right after opening: the first text's analysis, if it ends later, is not published
# for the second, whose own comes after its front end's.
fixed = text.replace("(DeadlockHandling Detect)", "(DeadlockHandling Detect)\n(VirtualChannels 2)")
c.change(prog, text, 2)
c.change(prog, fixed, 3)
diags3 = c.wait_diagnostics(uri, 3)
expect(not any(d["code"] == "deadlock-possible" for d in diags3), "version 3's front end")
hover = c.at("textDocument/hover", prog, 0, 1)
expect("result" in hover, "a request is answered while analyses run")
c.change(prog, text, 4)
c.wait_diagnostics(uri, 4)
again = c.wait_diagnostics(uri, 4)
expect(any(d["code"] == "deadlock-possible" for d in again), "version 4 gets its analysis again")
expect(c.finish() == 0, "shutdown and exit: status 0")

# The largest examples: the front end's diagnostics and a hover answer come within the
# front end's time, not the analysis'.
for example, front_limit in (("examples/insight/rdt-64x64.ndl", 1.0),
                             ("examples/pipeline/seven-stage-16ary-3cube.ndl", 2.0)):
    path = os.path.join(root, example)
    if os.environ.get("NDL_SANITIZED"):
        front_limit *= 10  # AddressSanitizer: an order of magnitude slower throughout
    c = Client(ndlc, os.path.dirname(path), timeout=300)
    c.initialize()
    t0 = time.monotonic()
    c.open(path, open(path).read())
    c.wait_diagnostics(c.uri(path), 1)
    t_diag = time.monotonic() - t0
    r = c.at("textDocument/hover", path, 1, 2)
    t_hover = time.monotonic() - t0
    expect("result" in r and t_hover < front_limit,
           "%s: diagnostics in %.2f s, a hover answered at %.2f s (limit %.1f s)" % (
               os.path.basename(path), t_diag, t_hover, front_limit) if timing else
           "%s: the front end's diagnostics and a hover within %.1f s" % (
               os.path.basename(path), front_limit))
    # Exit while the analysis may still run: the server ends at once, with status 0.
    t1 = time.monotonic()
    code = c.finish()
    expect(code == 0 and time.monotonic() - t1 < 5, "exit during the analysis: at once, status 0")
