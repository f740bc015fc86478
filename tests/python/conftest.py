"""The ndl package under test is the one staged beside the ndlc being tested
(<build>/share/ndl/python), put first on the path; NDLC names that ndlc
(tests/python/CMakeLists.txt sets both)."""
import os
import sys
from pathlib import Path

import pytest

NDLC = os.environ.get("NDLC")
if not NDLC:
    raise RuntimeError("set NDLC to the ndlc under test (ctest does: tests/python)")
STAGED = Path(NDLC).resolve().parent / "share" / "ndl" / "python"
sys.path.insert(0, str(STAGED))
SOURCE_ROOT = Path(__file__).resolve().parents[2]

# A 4x4 mesh under uniform steady traffic: every run here takes well under a second.
MESH = """;; a small mesh for the Python tests
(Topology (Mesh 4 4))
(RoutingAlgorithm DimensionOrder)
(FlowControlMethod Wormhole)
(VirtualChannels 2)
(NodeBufferSize 8flit)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 5flit)
(TrafficPattern Uniform)
(OfferedLoad 10%)
"""


@pytest.fixture
def mesh(tmp_path):
    path = tmp_path / "mesh.ndl"
    path.write_text(MESH)
    return path


@pytest.fixture
def ndlc():
    return NDLC
