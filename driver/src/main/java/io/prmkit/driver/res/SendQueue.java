package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.Uar;
import io.prmkit.driver.core.Unwind;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.DestroySqIn;
import io.prmkit.mlx5.InlineMode;
import io.prmkit.mlx5.ModifySqIn;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/**
 * An Ethernet send queue (PRM "Send Queue", CREATE_SQ / MODIFY_SQ / DESTROY_SQ): a cyclic ring of
 * 2^n 64-byte WQEBBs, a doorbell record whose send counter tells the device how far to read, the
 * CQ its completions go to and the TIS it sends through. Created in RST and moved to RDY; {@link
 * #modify} performs the other transitions (RDY to ERR after an error CQE, ERR to RST to RDY for
 * recovery: the datapath's one recovery path, {@code TxQueue}'s, runs them through {@code SqControl}).
 * Ring and doorbell are handed to the datapath as an {@code SqResources}.
 */
public final class SendQueue extends DeviceObject {

    private final QueueMemory memory;
    private final int logSize;
    private final CompletionQueue cq;
    private final Uar uar;
    private final int lkey;
    private final InlineMode minInline;
    private volatile SqState state = SqState.RST;

    private SendQueue(CommandTransport cmd, CommandTransport.ObjectHandle handle, int sqn, QueueMemory memory, int logSize, CompletionQueue cq, Uar uar,
                      int lkey, InlineMode minInline) {
        super(cmd, handle, sqn);
        this.memory = memory;
        this.logSize = logSize;
        this.cq = cq;
        this.uar = uar;
        this.lkey = lkey;
        this.minInline = minInline;
    }

    /**
     * CREATE_SQ with 2^{@code logWqeBbs} WQEBBs, then MODIFY_SQ RST to RDY. {@code minInline} is the
     * least each WQE inlines (the device's {@code wqe_inline_mode} decides; see the eth port).
     */
    public static SendQueue create(CommandTransport cmd, DmaMemory dma, Caps caps, Uar uar, Pd pd, Tis tis,
                                   CompletionQueue cq, Mkey mkey, int logWqeBbs, InlineMode minInline) {
        Caps.requireLog(1L << logWqeBbs, CmdHcaCap.log_max_wq_sz(caps.general()), "CREATE_SQ WQEBBs", "cmd_hca_cap.log_max_wq_sz");
        long bytes = PrmConstants.send_wqe_bb << logWqeBbs;
        SendQueue sq = QueueMemory.allocate(dma, bytes).createOwner(memory -> {
            var in = PrmCommands.CREATE_SQ.input(WorkQueues.pasBytes(dma, bytes), 0);
            MemorySegment sqc = CreateSqIn.ctx(in);
            Sqc.state$set(sqc, SqState.RST);
            Sqc.flush_in_error_en$set(sqc, true);
            Sqc.min_wqe_inline_mode$set(sqc, minInline);
            // UMR WQEs on this SQ (datapath memory registration) where the device allows them.
            if (io.prmkit.mlx5.PerProtocolNetworkingOffloadCaps.reg_umr_sq(caps.eth())) Sqc.reg_umr$set(sqc, true);
            Sqc.cqn$set(sqc, cq.cqn());
            Sqc.tis_lst_sz$set(sqc, 1);
            Sqc.tis_num_0$set(sqc, tis.id());
            WorkQueues.describe(in, CreateSqIn.ctx$BYTE_OFFSET + Sqc.wq$BYTE_OFFSET, dma, memory, pd.id(), uar.index(), Long.numberOfTrailingZeros(PrmConstants.send_wqe_bb), logWqeBbs);
            var created = cmd.create(PrmCommands.CREATE_SQ, in);
            return new SendQueue(cmd, created.handle(), CreateSqOut.sqn(created.out()), memory, logWqeBbs, cq, uar, mkey.key(), minInline);
        });
        return Unwind.finishOrClose(sq, q -> q.modify(SqState.RST, SqState.RDY));
    }

    /** MODIFY_SQ from {@code from} (the state the driver believes it is in) to {@code to}. */
    public synchronized void modify(SqState from, SqState to) {
        var in = PrmCommands.MODIFY_SQ.input();
        ModifySqIn.sq_state$set(in, from);
        ModifySqIn.sqn$set(in, id());
        Sqc.state$set(ModifySqIn.ctx(in), to);
        modify(PrmCommands.MODIFY_SQ, in);
        state = to;
    }

    public SqState state() {
        return state;
    }

    public int sqn() {
        return id();
    }

    public DmaRegion ringRegion() {
        return memory.ring();
    }

    public MemorySegment doorbellRecord() {
        return memory.doorbellRecord(WqDoorbellRecord.SIZE);
    }

    public CompletionQueue cq() {
        return cq;
    }

    public int logWqeBbs() {
        return logSize;
    }

    public InlineMode minInline() {
        return minInline;
    }

    /** Offset in its UAR's window ({@code uar().bar()}) of the BlueFlame register where the SQ's doorbell goes. */
    public long doorbellOffset() {
        return uar.doorbellOffset();
    }

    /** The UAR page the SQ rings. */
    public Uar uar() {
        return uar;
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_SQ.input();
        DestroySqIn.sqn$set(in, id());
        destroy(PrmCommands.DESTROY_SQ, in);
    }

    @Override
    protected void release() {
        memory.close();
    }
}
