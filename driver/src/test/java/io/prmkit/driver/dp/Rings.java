package io.prmkit.driver.dp;

import io.prmkit.driver.eth.CqResources;
import io.prmkit.driver.eth.RqResources;
import io.prmkit.driver.eth.SqResources;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.platform.DmaRegion;

/** What the control path would set up, built by hand for tests that play the device. */
final class Rings {
    static final int LKEY = 0x1100;
    static final int UAR_BF = 0x1800;

    private Rings() {}

    /** A CQ ring with every entry INVALID and owner 1 (as the kernel initialises it), and its doorbell record. */
    static CqResources cq(HostMemory host, int log, int cqn) {
        DmaRegion ring = host.allocate(Cqe64.SIZE << log, 4096);
        for (int i = 0; i < 1 << log; i++) Cqe64.Device.writer(ring.segment(), i * Cqe64.SIZE).opcode(CqeOpcode.INVALID).owner(true).write();
        DmaRegion dbr = host.allocate(64, 64);
        return new CqResources(ring, log, cqn, dbr.segment());
    }

    /** An RQ of 2^logWqes single-segment WQEs (rqn 0x55), its doorbell record, and a CQ of 2^logCq entries (cqn 0x81). */
    static RqResources rq(HostMemory host, int logWqes, int logCq) {
        CqResources cq = cq(host, logCq, 0x81);
        DmaRegion ring = host.allocate(16L << logWqes, 4096);
        DmaRegion dbr = host.allocate(64, 64);
        return new RqResources(ring, logWqes, 0x55, dbr.segment(), cq);
    }

    /** An SQ, its CQ, a UAR that rings the fake device, and the device itself. */
    static final class Tx {
        final HostMemory host;
        final RecordingMmio uar = new RecordingMmio();
        final CqResources cq;
        final FakeSq device;
        final SqResources res;

        Tx(HostMemory host, int logWqebbs, int logCq, InlineMode mode) {
            this.host = host;
            this.cq = cq(host, logCq, 0x80);
            DmaRegion ring = host.allocate(64L << logWqebbs, 4096);
            DmaRegion dbr = host.allocate(64, 64);
            this.device = new FakeSq(host, ring.segment(), logWqebbs, 0x42, dbr.segment(), cq, LKEY);
            this.res = new SqResources(ring, logWqebbs, 0x42, dbr.segment(), uar, UAR_BF, 0x100, cq, mode, device.control());
        }
    }
}
