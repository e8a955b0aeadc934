package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.Unwind;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.DestroyRqIn;
import io.prmkit.mlx5.ModifyRqIn;
import io.prmkit.mlx5.RqMemType;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/**
 * An Ethernet receive queue (PRM "Receive Queue", CREATE_RQ / MODIFY_RQ / DESTROY_RQ): a cyclic
 * ring of 2^n receive WQEs of one {@code wqe_data_seg} each (16 bytes), a doorbell record whose
 * receive counter tells the device how many WQEs are posted (the RQ has no MMIO doorbell), its CQ
 * and the Q counter that counts its drops. Created in RST and moved to RDY.
 */
public final class ReceiveQueue extends DeviceObject {

    private final QueueMemory memory;
    private final int logSize;
    private final int logStride;
    private final CompletionQueue cq;
    private final int lkey;
    private volatile RqState state = RqState.RST;

    private ReceiveQueue(CommandTransport cmd, CommandTransport.ObjectHandle handle, int rqn, QueueMemory memory, int logSize, int logStride,
                         CompletionQueue cq, int lkey) {
        super(cmd, handle, rqn);
        this.memory = memory;
        this.logSize = logSize;
        this.logStride = logStride;
        this.cq = cq;
        this.lkey = lkey;
    }

    /** CREATE_RQ with 2^{@code logSize} single-segment WQEs, counting drops in {@code counter}, then RST to RDY. */
    public static ReceiveQueue create(CommandTransport cmd, DmaMemory dma, Caps caps, Pd pd, CompletionQueue cq,
                                      Mkey mkey, QCounter counter, int logSize) {
        Caps.requireLog(1L << logSize, CmdHcaCap.log_max_wq_sz(caps.general()), "CREATE_RQ WQEs", "cmd_hca_cap.log_max_wq_sz");
        int logStride = Long.numberOfTrailingZeros(WqeDataSeg.SIZE);
        long bytes = WqeDataSeg.SIZE << logSize;
        ReceiveQueue rq = QueueMemory.allocate(dma, bytes).createOwner(memory -> {
            var in = PrmCommands.CREATE_RQ.input(WorkQueues.pasBytes(dma, bytes), 0);
            MemorySegment rqc = CreateRqIn.ctx(in);
            Rqc.mem_rq_type$set(rqc, RqMemType.of(0));
            Rqc.state$set(rqc, RqState.RST);
            Rqc.flush_in_error_en$set(rqc, true);
            Rqc.cqn$set(rqc, cq.cqn());
            if (counter != null) Rqc.counter_set_id$set(rqc, counter.id());
            WorkQueues.describe(in, CreateRqIn.ctx$BYTE_OFFSET + Rqc.wq$BYTE_OFFSET, dma, memory, pd.id(), 0, logStride, logSize);
            var created = cmd.create(PrmCommands.CREATE_RQ, in);
            return new ReceiveQueue(cmd, created.handle(), CreateRqOut.rqn(created.out()), memory, logSize, logStride, cq, mkey.key());
        });
        return Unwind.finishOrClose(rq, q -> q.modify(RqState.RST, RqState.RDY));
    }

    /** MODIFY_RQ from {@code from} to {@code to}. */
    public synchronized void modify(RqState from, RqState to) {
        var in = PrmCommands.MODIFY_RQ.input();
        ModifyRqIn.rq_state$set(in, from);
        ModifyRqIn.rqn$set(in, id());
        Rqc.state$set(ModifyRqIn.ctx(in), to);
        modify(PrmCommands.MODIFY_RQ, in);
        state = to;
    }

    public RqState state() {
        return state;
    }

    public int rqn() {
        return id();
    }

    public CompletionQueue cq() {
        return cq;
    }

    public MemorySegment doorbellRecord() {
        return memory.doorbellRecord(WqDoorbellRecord.SIZE);
    }

    public DmaRegion ringRegion() {
        return memory.ring();
    }

    public int logWqes() {
        return logSize;
    }

    public int lkey() {
        return lkey;
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_RQ.input();
        DestroyRqIn.rqn$set(in, id());
        destroy(PrmCommands.DESTROY_RQ, in);
    }

    @Override
    protected void release() {
        memory.close();
    }
}
