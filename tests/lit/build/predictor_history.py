"""predictor_history.py NDLC DIR: SampledPatternMatching and AntiDictionary against an
independent reference, symbol by symbol (seed 001, docs/prediction.md).

The centre router of a 3x3 mesh injects one message every microsecond (100 clocks, far more
than PredictorLatency), so its injection port's history is exactly the sequence of first hops
the pattern file asks for: X- (to node 3), X+ (5), Y- (1), Y+ (7). Every header's prediction is
made on the history of the headers before it, so the injection port's hits and predictions are
those of the predictor run over the sequence.

The reference below works on strings, not on the NDL's offsets: the longest earlier-occurring
suffix by search, SPM's sample of half of it, and AD's exclusions by enumerating the minimal
absent words of the history (u.a absent, its proper factors present, u a suffix that occurred before), as
the definitions in docs/prediction.md say. It also checks the paper's worked example: the history
122131 has the minimal absent words 11, 23, 32, 33, 121, 212 the paper lists, and also 222,
which the paper's list omits; symbol 1 is excluded and, of 2 and 3, 2 is predicted.
"""
import itertools
import pathlib
import random
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from ndltest import check, run  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
CAPACITY = 170  # stdlib/predictors.ndl's ring

# Symbols in the stdlib's fixed order: (port 0 -1), (port 0 1), (port 1 -1), (port 1 1), eject.
ALPHABET = range(5)
DEST = {0: 3, 1: 5, 2: 1, 3: 7}  # from the centre node 4: X-, X+, Y-, Y+


def text(x):
    return "".join(str(c) for c in x)


def occurrences(x, w):
    """How many times the word w occurs in x (overlapping)."""
    xs, ws = text(x), text(w)
    return sum(1 for i in range(len(xs) - len(ws) + 1) if xs.startswith(ws, i))


def longest_repeat(x):
    """The longest suffix of x that also occurs ending before x's last symbol."""
    xs, best = text(x), 0
    for ell in range(1, len(xs)):
        if xs[len(xs) - ell:] in xs[:-1]:
            best = ell
        else:
            break
    return best


def choose(x, allowed, context):
    """The allowed symbol that most often follows `context` in x, then the most frequent,
    then the first in the alphabet's order; a symbol x never holds is never chosen."""
    seen = [a for a in allowed if x.count(a) > 0]
    if not seen:
        return None
    return max(seen, key=lambda a: (occurrences(x, context + (a,)), x.count(a), -a))


def spm(x):
    s = (longest_repeat(x) + 1) // 2
    return choose(x, ALPHABET, tuple(x[len(x) - s:]) if s else ())


def minimal_absent(x, w):
    """w is absent from x and its two longest proper factors are present."""
    xs, ws = text(x), text(w)
    return ws not in xs and (len(ws) == 1 or (ws[1:] in xs and ws[:-1] in xs))


def minimal_absent_words(x, up_to):
    return {w for n in range(1, up_to + 1)
            for w in itertools.product(sorted(set(x)), repeat=n) if minimal_absent(x, w)}


def excluded(x):
    """Symbols a with u.a a minimal absent word for a suffix u of x that occurred before
    (the suffixes no longer than the longest repeated one)."""
    L = longest_repeat(x)
    return {a for a in ALPHABET for ell in range(1, L + 1)
            if minimal_absent(x, tuple(x[len(x) - ell:]) + (a,))}


def ad(x):
    L = longest_repeat(x)
    allowed = [a for a in ALPHABET if a not in excluded(x)]
    return choose(x, allowed, tuple(x[len(x) - L:]) if L else ())


# ---- the paper's example, symbols 1, 2, 3 written 0, 1, 2
paper = [0, 1, 1, 0, 2, 0]
words = {"".join(str(c + 1) for c in w) for w in minimal_absent_words(paper, 3)}
check("122131: the paper's minimal absent words, and 222 besides",
      {"11", "23", "32", "33", "121", "212", "222"} <= words, str(sorted(words)))
check("122131: AD excludes 1 and predicts 2", excluded(paper) == {0} and ad(paper) == 1,
      f"excluded {excluded(paper)}, predicted {ad(paper)}")


def expected(predictor, seq):
    hits = predictions = 0
    for t, sym in enumerate(seq):
        guess = predictor(seq[max(0, t - CAPACITY):t])
        predictions += guess is not None
        hits += guess == sym
    return hits, predictions


MESH = """(Topology (Mesh 3 3))
(RoutingAlgorithm DimensionOrder)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(RouterPipeline (IB 1clock) (RC 3clock) (VA 1clock) (SA 1clock) (ST 1clock))
(PredictivePath (IB 1clock) (ST 1clock))
(import "predictors")
"""

# The paper's example followed by its prediction point; a periodic sequence with noise, long
# enough that the ring (170) wraps.
rng = random.Random(7)
period = [0, 1, 1, 0, 2, 0, 3, 3]
noisy = [period[i % len(period)] if rng.random() < 0.8 else rng.randrange(4) for i in range(260)]
cases = {"paper": paper + [1], "noisy": noisy}
for case, seq in cases.items():
    cpf = OUT / f"{case}.cpf"
    receives = "".join(f"node {DEST[s]}\n" + "  recv 4\n" * seq.count(s) for s in set(seq))
    cpf.write_text("nodes 9\nnode 4\n" + "".join(f"  compute 1usec\n  send {DEST[s]} 16byte\n"
                                                   for s in seq) + receives)
    for name, reference in (("SampledPatternMatching", spm), ("AntiDictionary", ad)):
        r = run(NDLC, OUT, f"{case}-{name}",
                MESH + f'(Predictor {name})\n(CommunicationPatternFile "{cpf.name}")\n')
        inj = r["prediction"]["injection_ports"]
        hits, predictions = expected(reference, seq)
        check(f"{case}, {name}: the injection port's hits and predictions are the reference's",
              (inj["hits"], inj["predictions"], inj["hops"]) == (hits, predictions, len(seq)),
              f"NDL {inj['hits']} hits of {inj['predictions']}, reference {hits} of "
              f"{predictions}, {len(seq)} headers")
