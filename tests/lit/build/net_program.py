"""Prints a program whose simulation runs for a long time (no creation
limit, a far time limit), for tests that interrupt it."""
print("""(Topology (Torus 16 16))
(VirtualChannels 2)
(DeadlockHandling Avoid)
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 256bit)
(MessageCreationRate 2%)
(MessageCreationMax 1000000000)
(MessageMaxCount 1000000000)""")
