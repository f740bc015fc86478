#!/usr/bin/env python3
"""Writes a valid NDL program of about SIZE bytes (default 1 MB) for the
`ndlc check` benchmark: the INSIGHT parameters, a sweep, and many report
pairs with comments between them, so that every stage (lexing, parsing,
the AST, the checker) does real work on every byte."""
import sys

size = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 20
out = open(sys.argv[1], "w")
out.write(""";;; Generated benchmark program: INSIGHT's parameters plus bulk.
(Topology (Torus 64 64))
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeHardwareDelay 60nsec)
(NodeBufferSize 256bit)
(MessageCreationMax 10000)
(MessageCreationInterval 2usec)
(MessageLength 8byte to 32byte)
(Sweep MessageCreationInterval 2usec 10usec 50usec 100usec)
(ReportPairs
""")
written = out.tell()
i = 0
while written < size - 16:
    a, b = i % 4096, (i * 7 + 1) % 4096
    if a == b:
        b = (b + 1) % 4096
    line = f"  ({a} {b}) ; pair {i}\n" if i % 8 == 0 else f"  ({a} {b})\n"
    out.write(line)
    written += len(line)
    i += 1
out.write(")\n")
out.close()
