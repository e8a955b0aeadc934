package io.prmkit.driver.eth;

/**
 * What {@link EthPort#open} builds.
 *
 * @param queuePairs   send/receive queue pairs (each with its own CQs)
 * @param logSqWqeBbs  log2 of the 64-byte WQEBBs of each SQ (its CQ gets as many entries)
 * @param logRqWqes    log2 of the receive WQEs of each RQ (its CQ gets as many entries)
 * @param mtu          IP MTU in bytes, as {@code ip link} takes it (the port writes the hardware MTU,
 *                     22 bytes more, to PMTU and the vport context)
 * @param promiscuous  receive all traffic (vport promisc_all)
 * @param rqtSize      RSS indirection entries (a power of two, at least queuePairs)
 * @param cqeCompression whether the receive CQs compress completions (PRM "Compressed CQE")
 * @param rxMatch      which received frames the port's receive rule takes (default every frame)
 */
public record EthPortConfig(int queuePairs, int logSqWqeBbs, int logRqWqes, int mtu, boolean promiscuous, int rqtSize, CqeCompression cqeCompression,
                            RxMatch rxMatch) {

    /**
     * CQE compression on the receive CQs: {@code AUTO} (the default, as DPDK's mlx5 PMD does) turns it
     * on where the device reports {@code cmd_hca_cap.cqe_compression}; {@code ON} requires it; {@code OFF}
     * keeps one 64-byte CQE per frame.
     */
    public enum CqeCompression { AUTO, ON, OFF }

    public EthPortConfig {
        if (queuePairs < 1) throw new IllegalArgumentException("queuePairs must be >= 1, got " + queuePairs);
        if (logSqWqeBbs < 4 || logSqWqeBbs > 16) throw new IllegalArgumentException("logSqWqeBbs must be 4..16, got " + logSqWqeBbs);
        if (logRqWqes < 1 || logRqWqes > 16) throw new IllegalArgumentException("logRqWqes must be 1..16, got " + logRqWqes);
        if (mtu < 68 || mtu > 9978) throw new IllegalArgumentException("mtu must be 68..9978, got " + mtu);
        if (Integer.bitCount(rqtSize) != 1 || rqtSize < queuePairs)
            throw new IllegalArgumentException("rqtSize must be a power of two >= queuePairs, got " + rqtSize);
        java.util.Objects.requireNonNull(cqeCompression, "cqeCompression");
        java.util.Objects.requireNonNull(rxMatch, "rxMatch");
    }

    /** One queue pair of 1024 WQEBBs / 1024 receive WQEs, MTU 1500, not promiscuous, CQE compression where supported, every frame received. */
    public static EthPortConfig defaults() {
        return new EthPortConfig(1, 10, 10, 1500, false, 1, CqeCompression.AUTO, RxMatch.all());
    }

    /** The port's receive rule takes only the frames {@code m} matches. */
    public EthPortConfig withRxMatch(RxMatch m) {
        return new EthPortConfig(queuePairs, logSqWqeBbs, logRqWqes, mtu, promiscuous, rqtSize, cqeCompression, m);
    }

    public EthPortConfig withQueuePairs(int n) {
        return new EthPortConfig(n, logSqWqeBbs, logRqWqes, mtu, promiscuous, Math.max(rqtSize, Integer.bitCount(n) == 1 ? n : Integer.highestOneBit(n) << 1), cqeCompression, rxMatch);
    }

    public EthPortConfig withPromiscuous(boolean on) {
        return new EthPortConfig(queuePairs, logSqWqeBbs, logRqWqes, mtu, on, rqtSize, cqeCompression, rxMatch);
    }

    public EthPortConfig withMtu(int m) {
        return new EthPortConfig(queuePairs, logSqWqeBbs, logRqWqes, m, promiscuous, rqtSize, cqeCompression, rxMatch);
    }

    public EthPortConfig withSizes(int logSq, int logRq) {
        return new EthPortConfig(queuePairs, logSq, logRq, mtu, promiscuous, rqtSize, cqeCompression, rxMatch);
    }

    public EthPortConfig withCqeCompression(CqeCompression c) {
        return new EthPortConfig(queuePairs, logSqWqeBbs, logRqWqes, mtu, promiscuous, rqtSize, c, rxMatch);
    }
}
