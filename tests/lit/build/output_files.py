"""output_files.py NDLC DIR: what a simulator does with each kind of output path, run as a
user runs it (docs/runtime.md, section 4), and its tables (section 5.1):
- `--quiet --json /dev/stdout` into a pipe: the JSON alone on stdout, /dev/stdout untouched;
- a symbolic link: written through to its target, the link kept;
- a FIFO: written to its reader, the FIFO kept;
- a full device (ENOSPC) as --json and as DataOutputFile: exit 3, a clear error, the other
  files written, the device node kept;
- a directory: exit 3, a clear error with a hint;
- a network above 4096 nodes: no nodes table by default (the note says so), one with --tables;
- Ctrl-C on it: results, tables included, written within 2 s of the signal.
Prints a line per check; exits non-zero if any failed."""
import csv
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
out = os.path.realpath(out)  # as the simulator names files: links resolved
failed = []


def check(what, ok, detail=""):
    print(f"{'ok' if ok else 'FAIL'}: {what}" + ("" if ok else f": {detail}"))
    if not ok:
        failed.append(what)


def case(fn):
    """Runs a group of checks, fn(WHAT) with WHAT its docstring; an exception (a file never
    written) fails the group, not the rest."""
    try:
        fn(fn.__doc__)
    except Exception as e:  # noqa: BLE001
        check(fn.__doc__, False, f"{type(e).__name__}: {e}")
    return fn


def build(name, program):
    src, sim = os.path.join(out, f"{name}.ndl"), os.path.join(out, f"{name}.sim")
    with open(src, "w") as f:
        f.write(program)
    subprocess.run([ndlc, "build", src, "-o", sim], check=True)
    return sim


def run(sim, *args, **kw):
    return subprocess.run([sim, "--quiet", *args], capture_output=True, text=True, **kw)


small = build("small", """(Topology (Torus 4 4))
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 128bit)
(MessageCreationRate 1%)
(MessageCreationMax 400)
(ReportPairs (0 5))
""")

@case
def dev_stdout(what):
    """--json /dev/stdout gives the JSON alone on stdout"""
    p = run(small, "--json", "/dev/stdout")
    try:
        r = json.loads(p.stdout)
    except ValueError as e:
        check(what, False, f"{e}: {p.stdout[:200]}")
        return
    check(what,
          p.returncode == 0 and r["status"] == "ok" and r["messages"]["delivered"] == 400,
          f"exit {p.returncode}")
    check("with no file beside a stream, no tables, and the note says why",
          r["tables"]["nodes"] is None
          and "the JSON goes to '/dev/stdout'" in (r["tables"]["note"] or "")
          and "note: tables not written: the JSON goes to '/dev/stdout'" in p.stderr,
          f"{r['tables']} {p.stderr}")


check("/dev/stdout is still a link", os.path.islink("/dev/stdout"))


@case
def symbolic_link(what):
    """a symbolic link is written through and stays a link"""
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    real, link = os.path.join(out, "data", "real.json"), os.path.join(out, "link.json")
    for f in (real, link):
        if os.path.lexists(f):
            os.remove(f)
    os.symlink("data/real.json", link)
    p = run(small, "--json", link)
    check(what,
          p.returncode == 0 and os.path.islink(link) and os.readlink(link) == "data/real.json"
          and json.load(open(real))["status"] == "ok", p.stderr)
    r = json.load(open(real))
    nodes = os.path.join(out, "link.nodes.csv")
    check("its tables are beside the link, named by absolute path (not beside the JSON file)",
          r["tables"]["nodes"] == nodes and os.path.exists(nodes)
          and r["tables"]["pairs"] == os.path.join(out, "link.pairs.csv"), r["tables"])


@case
def fifo(what):
    """a FIFO is written to its reader and stays a FIFO"""
    path = os.path.join(out, "results.fifo")
    if os.path.lexists(path):
        os.remove(path)
    os.mkfifo(path)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(path).read()), daemon=True)
    reader.start()
    p = run(small, "--json", path, timeout=60)
    if reader.is_alive() and stat.S_ISFIFO(os.lstat(path).st_mode):
        with open(path, "w"):  # the simulator never opened it: let the reader go
            pass
    reader.join(timeout=60)
    check(what,
          p.returncode == 0 and got and got[0] and json.loads(got[0])["status"] == "ok"
          and stat.S_ISFIFO(os.lstat(path).st_mode), f"exit {p.returncode}: {p.stderr}")


@case
def full_device(what):
    """a full device: exit 3, a clear error, the other files written, the node kept"""
    # A node of our own for /dev/full where we may make one (as root), else /dev/full itself,
    # never replaced either way.
    full = os.path.join(out, "full")
    if os.path.lexists(full):
        os.remove(full)
    try:
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        open(full, "w").close()
    except OSError:
        if os.path.lexists(full):
            os.remove(full)
        full = "/dev/full"
    before = os.lstat(full)
    ok_json = os.path.join(out, "beside-full.json")
    p = run(small, "--json", ok_json, "--param", f"DataOutputFile={full}")
    after = os.lstat(full)
    check("DataOutputFile on a full device: exit 3 and the error says why",
          p.returncode == 3
          and f"error: cannot write '{full}': No space left on device" in p.stderr,
          f"exit {p.returncode}: {p.stderr}")
    check("the JSON is still written", json.load(open(ok_json))["status"] == "ok")
    check("the device node is still the device",
          stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
          and after.st_ino == before.st_ino, f"{before} -> {after}")
    p = run(small, "--json", full)
    check("--json on a full device: exit 3 and the error says why",
          p.returncode == 3
          and f"error: cannot write '{full}': No space left on device" in p.stderr
          and stat.S_ISCHR(os.lstat(full).st_mode), f"exit {p.returncode}: {p.stderr}")


@case
def directory(what):
    """--json naming a directory: exit 3, the error and a hint"""
    p = run(small, "--json", out)
    check(what,
          p.returncode == 3 and f"error: cannot write '{out}': Is a directory\n"
          f"hint: name a file, e.g. '{out}/results.json'" in p.stderr and os.path.isdir(out),
          f"exit {p.returncode}: {p.stderr}")


# Above 4096 nodes: a run long enough to interrupt.
big = build("big", """(Topology (Torus 128 128))
(VirtualChannels 2)
(DeadlockHandling Avoid)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 256bit)
(MessageCreationRate 0.5%)
(MessageCreationMax 1000000000)
(SimulationTime 2000clock)
""")


@case
def default_above_the_limit(what):
    """16384 nodes: no nodes table by default, and the note says so"""
    js = os.path.join(out, "big.json")
    p = run(big, "--json", js)
    r = json.load(open(js))
    check(what,
          r["tables"]["nodes"] is None
          and not os.path.exists(os.path.join(out, "big.nodes.csv"))
          and r["tables"]["note"] == "per-node tables not written: 16384 nodes, above 4096 "
          "(--tables PREFIX writes them)" and "ndl: note: per-node tables not written" in p.stderr,
          f"{r.get('tables')} {p.stderr}")


@case
def interrupted(what):
    """Ctrl-C at 16384 nodes with --tables: results written within 2 s"""
    js = os.path.join(out, "stopped.json")
    tables = os.path.join(out, "tables")
    os.makedirs(tables, exist_ok=True)
    proc = subprocess.Popen([big, "--quiet", "--param", "TimeLimitClocks=100000000", "--json",
                             js, "--tables", tables + "/"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(1.0)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=60)
    seconds = time.monotonic() - t0
    r = json.load(open(js))
    with open(os.path.join(tables, "nodes.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(f"{what} ({seconds:.2f} s)",
          code == 3 and r["status"] == "interrupted" and seconds < 2.0 and len(rows) == 16384
          and r["tables"]["nodes"] == os.path.join(tables, "nodes.csv")
          and sum(int(n["received"]) for n in rows) == r["messages"]["delivered"],
          f"exit {code}, {len(rows)} rows, {r['tables']}")


sys.exit(1 if failed else 0)
