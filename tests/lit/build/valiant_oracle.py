"""Valiant's mean and maximum hop counts on a k x k torus, computed
independently of the compiler: every source, destination and intermediate
node, dimension order on each leg (x then y, the shorter way, + at a tie,
as selection First takes on an idle network), and a packet that meets its
destination on leg 1 ejects there.

valiant_oracle.py K INFO.json   checks ndlc info's routing_avg_hops and
                                routing_max_hops against the oracle.
"""
import json
import sys
from fractions import Fraction


def dor_path(s, d, k):
    c, t = [s % k, s // k], (d % k, d // k)
    path = []
    for dim in range(2):
        while c[dim] != t[dim]:
            ahead = (t[dim] - c[dim]) % k
            c[dim] = (c[dim] + (1 if ahead <= k - ahead else -1)) % k
            path.append(c[0] + c[1] * k)
    return path


def oracle(k):
    n = k * k
    total, count, longest = Fraction(0), 0, 0
    for s in range(n):
        for d in range(n):
            if s == d:
                continue
            for m in range(n):
                leg1 = dor_path(s, m, k)
                hops = leg1.index(d) + 1 if d in leg1 else len(leg1) + len(dor_path(m, d, k))
                total += hops
                count += 1
                longest = max(longest, hops)
    return total / count, longest


k = int(sys.argv[1])
mean, longest = oracle(k)
info = json.load(open(sys.argv[2]))
dor_mean = info["avg_distance"]
print(f"oracle mean {float(mean):.6f} ({mean}), max {longest}")
assert abs(info["routing_avg_hops"] - float(mean)) < 1e-9, info["routing_avg_hops"]
assert info["routing_max_hops"] == longest, info["routing_max_hops"]
assert not info["routing_minimal"]
print(f"info agrees; Valiant / minimal mean hops = {float(mean) / dor_mean:.3f}")
