"""Properties of `ndlc fmt` over every .ndl file of the repository (docs/fmt.md).

The stdlib, examples, tests, editor fixtures and the fuzz corpus's committed entries
(tests/fuzz: seeds and regressions) are copied twice, as they are and
formatted with one `ndlc fmt -i` (so relative imports and pattern files resolve alike).
  - fmt refuses exactly the files whose first error `ndlc check` also reports;
  - formatting is idempotent: `ndlc fmt --check` passes over the formatted copy;
  - it is canonical under the whitespace it owns: every file with each line's indentation
    removed and its blank lines tripled formats to the same text (files without block
    comments, whose inner lines are kept verbatim);
  - the formatted copy checks identically, the formatted stdlib included (the same
    diagnostics, kinds, severities and messages; only positions may move), and each
    example compiles to the same LLVM module, so it simulates identically, clock for clock
    (under sanitizers these two comparisons leave out the files of SANITIZED_SLOW);
  - the repository's files are formatted, except those whose layout is what they test.

usage: fmt_properties.py NDLC SRCROOT WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

ndlc, root, work = sys.argv[1], sys.argv[2], sys.argv[3]
TREES = ("stdlib", "examples", "grammar/examples", "bench", "tests/lit", "tests/fuzz",
         "editors/vscode/test")
# Files whose layout is what they test: editor highlighting fixtures, diagnostics
# positioned on purpose-made layouts, the parse dump of odd spacing, fmt's own inputs.
NOT_FORMATTED = ("editors/vscode/test/", "tests/lit/diagnostics/", "tests/lit/check/dump_parse.ndl",
                 "tests/lit/fmt/Inputs/", "tests/fuzz/")
# Checks that run a 4,096-node dependency analysis or long traces (3 to 60 s each,
# up to a quarter of an hour under sanitizers): the examples' modules are compared all the same.
SLOW_CHECK = ("examples/workloads/torus2d.ndl", "examples/workloads/torus3d.ndl",
              "examples/pipeline/seven-stage-16ary-3cube.ndl", "examples/prediction/cube16-ad.ndl",
              "examples/insight/rdt.ndl", "examples/insight/rdt-64x64.ndl",
              "grammar/examples/insight-figure1.ndl", "tests/lit/build/memoize.ndl",
              "tests/fuzz/regressions/evaluator/long_loop.ndl")
# Under sanitizers the two comparisons below also leave out the ten files whose check or
# module takes over 2 s there (2 to 11 s each, about 1 s normally; two thirds of the
# comparisons' time). The normal build compares them; the sanitized build still formats
# them above, and other tests check them.
SANITIZED = os.environ.get("NDL_SANITIZED") == "1"
SANITIZED_SLOW = ("tests/lit/diagnostics/fail_pattern_unchecked.ndl", "editors/vscode/test/insight.test.ndl",
                  "tests/lit/build/shortest_path.ndl", "grammar/examples/lexical.ndl",
                  "examples/workloads/rdt.ndl", "tests/lit/build/Inputs/results/rdt-vector-routing.ndl",
                  "examples/workloads/hypercube.ndl", "examples/insight/rdt.ndl",
                  "examples/insight/rdt-64x64.ndl", "examples/insight/torus2d.ndl")

failures = []


def fail(rel, what):
    failures.append(f"{rel}: {what}")


def run(args, cwd, text=None):
    p = subprocess.run([ndlc] + args, input=text, capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def copy_trees(dest):
    shutil.rmtree(dest, ignore_errors=True)
    for t in TREES:
        shutil.copytree(os.path.join(root, t), os.path.join(dest, t),
                        ignore=shutil.ignore_patterns("node_modules", "*.png", "*.csv", "*.svg"))


def read(base, rel):
    with open(os.path.join(base, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


orig, form, messy = (os.path.join(work, d) for d in ("orig", "form", "mess"))  # equal lengths: paths in modules
for d in (orig, form, messy):
    copy_trees(d)
files = sorted(os.path.relpath(os.path.join(d, f), orig)
               for t in TREES for d, _, fs in os.walk(os.path.join(orig, t))
               for f in fs if f.endswith(".ndl"))

# Format the copy in place; the refused files are named in the diagnostics.
rc, _, err = run(["fmt", "-i"] + files, form)
refused = sorted({l.split(":")[0] for l in err.splitlines() if ": error: " in l})
for rel in refused:
    first = next(l for l in err.splitlines() if l.startswith(rel + ":") and ": error: " in l)
    crc, _, cerr = run(["check", rel], orig)
    if crc != 1 or first not in cerr:
        fail(rel, f"fmt refused it ({first!r}) but check says (exit {crc}) {cerr[:200]!r}")
if (rc != 0) != bool(refused):
    fail("fmt -i", f"exit {rc} with {len(refused)} refused files:\n{err}")
good = [f for f in files if f not in refused]

# Idempotent.
rc, _, err = run(["fmt", "--check"] + good, form)
if rc != 0:
    fail("fmt --check over formatted files", err)

# Canonical: indentation and blank lines are fmt's.
canonical = [f for f in good if "#|" not in read(orig, f)]
for rel in canonical:
    lines = [l.lstrip(" \t") for l in read(orig, rel).split("\n")]
    with open(os.path.join(messy, rel), "w", encoding="utf-8") as f:
        f.write("\n".join(l if l else "\n\n" for l in lines))
run(["fmt", "-i"] + canonical, messy)
for rel in canonical:
    if read(messy, rel) != read(form, rel):
        fail(rel, "indentation and blank lines changed the result")

# The repository's own files are formatted.
for rel in good:
    if not rel.startswith(NOT_FORMATTED) and read(orig, rel) != read(form, rel):
        fail(rel, "is not formatted (ndlc fmt -i)")


# Checks identically: one run over every file each way, positions left out.
def diagnostics(base, rels):
    rc, out, err = run(["check", "--json", "--max-errors", "0", "--stdlib", "stdlib"] + rels, base)
    return [(d.get("file").replace(base, "<copy>"), d.get("kind"), d.get("severity"),
             d.get("message").replace(base, "<copy>"))
            for d in json.loads(out)["diagnostics"]]


checked = [f for f in good if f not in SLOW_CHECK and not (SANITIZED and f in SANITIZED_SLOW)]
a, b = diagnostics(orig, checked), diagnostics(form, checked)
if a != b:
    diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
    fail("check", f"{len(a)} vs {len(b)} diagnostics after formatting; first differences {diff}")
with_errors = {d[0] for d in a if d[2] == "error"}

# Compiles to the same module, formatted stdlib included.
examples = [f for f in good if f.startswith("examples/") and not (SANITIZED and f in SANITIZED_SLOW)]
modules = 0
for rel in examples:
    cwd, name = os.path.split(rel)
    x = run(["emit-llvm", "--module-only", "--stdlib", os.path.join(orig, "stdlib"), name], os.path.join(orig, cwd))
    y = run(["emit-llvm", "--module-only", "--stdlib", os.path.join(form, "stdlib"), name], os.path.join(form, cwd))
    if (x[0], x[1].replace(orig, "<copy>")) != (y[0], y[1].replace(form, "<copy>")):
        fail(rel, f"compiles to a different module after formatting (exit {x[0]}, {y[0]})")
    modules += x[0] == 0

for f in failures:
    print("FAIL", f)
print(f"files {len(files)} refused {len(refused)} canonical {len(canonical)} "
      f"checked {len(checked)} (with errors {len(with_errors)}) diagnostics {len(a)} modules {modules} of {len(examples)} examples")
sys.exit(1 if failures else 0)
