# The scale benchmarks' network, sourced by run.sh and ratio.sh: a K x K torus, dimension
# order with dateline classes, 2 VCs x 8 flits, wormhole, 8-flit packets, uniform traffic.
#   torus_program K LOAD CLOCKS    LOAD in flits/node/clock
torus_program() {
  cat <<NDL
(Topology (Torus $1 $1))
(DeadlockHandling Avoid)
(RoutingAlgorithm DimensionOrder)
(VirtualChannels 2)
(FlowControlMethod Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 256bit)
(NodeBufferSize 8flit)
(TrafficPattern Uniform)
(MessageCreationMax 1000000000)
(MessageCreationRate $(python3 -c "print(f'{$2 / 8 * 100:.6g}%')"))
(SimulationTime $3clock)
NDL
}
