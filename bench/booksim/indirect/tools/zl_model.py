#!/usr/bin/env python3
"""Analytic zero-load model check: replicate BookSim routing to count routers
(R), local (L) and global (G) channel traversals per src/dst pair, then
compare  T0 = t_r*R + sum(channel latencies) + inj + ej (+ extra)  with the
measured averages.  Uniform traffic includes src==dst (BookSim RandomInt(N-1))."""
import itertools
# ---------- dragonflynew, p=2 ----------
P = 2; A = 2 * P; G = A * P + 1; N = A * P * G
def df_port(rID, dest):
    grp_nodes = A * P; grp = rID // A; dgrp = dest // grp_nodes
    if dgrp == grp: grp_rid = dest // P; go = -1
    else:
        go = dgrp if grp > dgrp else dgrp - 1
        grp_rid = go // P + grp * A
    if rID * P <= dest < (rID + 1) * P: return ('eject', None)
    if grp_rid == rID:  # global link
        # find neighbour group/router: follow BookSim wiring approximated by
        # destination group; land on the router in dgrp that owns the link back
        return ('global', go)
    return ('local', grp_rid)
def df_path(src, dest):
    r = src // P; R = 1; L = 0; Gl = 0
    while True:
        kind, x = df_port(r, dest)
        if kind == 'eject': return R, L, Gl
        if kind == 'local': r = x; L += 1
        else:
            sg = r // A; dg = dest // (A * P)
            # router in dest group that holds the link to the source group
            back = sg if dg > sg else sg - 1
            r = back // P + dg * A; Gl += 1
        R += 1
def avg(f, pairs):
    s = [f(*p) for p in pairs]; n = len(s)
    return [sum(x[i] for x in s) / n for i in range(len(s[0]))]
uni = [(s, d) for s in range(N) for d in range(N)]
R, L, Gl = avg(df_path, uni)
print(f"dragonfly min uniform: R={R:.4f} L={L:.4f} G={Gl:.4f}  T0(3+2R+10L+100G)={3+2*R+10*L+100*Gl:.3f}")
grp_nodes = A * P
bad = [(s, d) for s in range(N) for d in range(N) if d // grp_nodes == (s // grp_nodes + 1) % G]
R, L, Gl = avg(df_path, bad)
print(f"dragonfly min bad_dragon: R={R:.4f} L={L:.4f} G={Gl:.4f}  T0(3+2R+10L+100G)={3+2*R+10*L+100*Gl:.3f}")
# ---------- fattree k=4 n=3 ----------
def ft_R(s, d):
    if s // 4 == d // 4: return 1
    if s // 16 == d // 16: return 3
    return 5
R = sum(ft_R(s, d) for s in range(64) for d in range(64)) / 4096
print(f"fattree uniform: R={R:.4f} chans={R-1:.4f}  T0(3+3R+(R-1))={3*R+(R-1)+3:.3f}")
# ---------- flatfly k=4 n=2 c=4, xr=yr=2, use_noc_latency: chan len = 2*|d| ----------
# node -> router: BookSim flatfly_transformation (cmesh-like layout)
def ff_router(node):
    h = (node % 8) // 2; v = (node // 8) // 2; return v * 4 + h
def ff_min(s, d):
    rs, rd = ff_router(s), ff_router(d)
    R = 1; lat = 0
    xs, ys, xd, yd = rs % 4, rs // 4, rd % 4, rd // 4
    if xs != xd: R += 1; lat += 2 * abs(xs - xd)
    if ys != yd: R += 1; lat += 2 * abs(ys - yd)
    return R, lat
pairs = [(s, d) for s in range(64) for d in range(64)]
R, C = avg(ff_min, pairs)
print(f"flatfly ran_min(=dimension order) uniform: R={R:.4f} chan_cycles={C:.4f} T0(3+3R+C)={3*R+C+3:.3f}")
def ff_step(r, tr):
    """one DOR (x first) step from router r toward router tr; returns (next, chan_latency)"""
    if r % 4 != tr % 4:
        nx = (r // 4) * 4 + tr % 4; return nx, 2 * abs(r % 4 - tr % 4)
    nx = (tr // 4) * 4 + r % 4; return nx, 2 * abs(r // 4 - tr // 4)
def ff_val(s, d):
    """hop-by-hop replica of valiant_flatfly: ph=1 once at intm router or dest router"""
    tot = [0, 0]
    for m in range(64):
        r, rd, rm = ff_router(s), ff_router(d), ff_router(m)
        R, C, ph = 1, 0, 0
        while True:
            if rm == r or rd == r: ph = 1
            tgt = rm if ph == 0 else rd
            if ph == 1 and r == rd: break
            r, c = ff_step(r, tgt); R += 1; C += c
        tot[0] += R; tot[1] += C
    return tot[0] / 64, tot[1] / 64
R, C = avg(ff_val, pairs)
print(f"flatfly valiant uniform: R={R:.4f} chan_cycles={C:.4f} T0(3+3R+C)={3*R+C+3:.3f}")
