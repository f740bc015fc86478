"""Prints a minimal NDL program around a topology given on the command line,
with optional extra forms: net.py "(Torus 8 8)" "(VirtualChannels 2)" ..."""
import sys

print(f"(Topology {sys.argv[1]})")
print("(NetworkChannelWidth 32bit)\n(NetworkFrequency 50MHz)\n(NetworkPacketSize 256bit)")
print("(MessageCreationInterval 2usec)")
for form in sys.argv[2:]:
    print(form)
