package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.Caps;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.Uar;
import io.prmkit.driver.core.UmemMemory;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CqeSize;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.DestroyCqIn;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/**
 * A completion queue (PRM "Completion Queues", CREATE_CQ): a ring of 2^n 64-byte CQEs in host
 * memory, an 8-byte doorbell record (consumer index and arm word), the UAR used to arm it and the EQ
 * that receives its completion events. Ring and record are named by page list and bus address, or,
 * in memory registered as a umem (DEVX, {@link UmemMemory}), by umem id and offset. Every CQE starts as opcode INVALID with owner = 1, so the
 * first pass of the device (owner 0) is told apart from stale entries.
 */
public final class CompletionQueue extends DeviceObject {

    private static final PrmLayout.Field OPCODE = Cqe64.layout().field("opcode").orElseThrow();
    private static final PrmLayout.Field OWNER = Cqe64.layout().field("owner").orElseThrow();

    private final QueueMemory memory;
    private final int logSize;
    private final Uar uar;
    private final int eqn;

    private CompletionQueue(CommandTransport cmd, CommandTransport.ObjectHandle handle, int cqn, QueueMemory memory, int logSize, Uar uar, int eqn) {
        super(cmd, handle, cqn);
        this.memory = memory;
        this.logSize = logSize;
        this.uar = uar;
        this.eqn = eqn;
    }

    /** CREATE_CQ with 2^{@code logSize} 64-byte CQEs, events to EQ {@code eqn}. */
    public static CompletionQueue create(CommandTransport cmd, DmaMemory dma, Caps caps, Uar uar, int eqn, int logSize) {
        return create(cmd, dma, caps, uar, eqn, logSize, false);
    }

    /**
     * The same, with CQE compression when {@code compress} (PRM "Compressed CQE"; the device needs
     * {@code cmd_hca_cap.cqe_compression}): {@code cqe_comp_en}, the basic layout, and mini CQEs in
     * HASH format, so each compressed completion keeps its own RSS hash (the checksum format would
     * keep the raw checksum instead, which the driver does not report: it reports the L3/L4 OK bits,
     * which a session's completions share with its title).
     */
    public static CompletionQueue create(CommandTransport cmd, DmaMemory dma, Caps caps, Uar uar, int eqn, int logSize, boolean compress) {
        if (compress) Caps.require(CmdHcaCap.cqe_compression(caps.general()), "CQE compression", "cmd_hca_cap.cqe_compression");
        Caps.requireLog(1L << logSize, CmdHcaCap.log_max_cq_sz(caps.general()), "CREATE_CQ entries", "cmd_hca_cap.log_max_cq_sz");
        long bytes = Cqe64.SIZE << logSize;
        long pages = QueueMemory.pages(bytes);
        return QueueMemory.allocate(dma, bytes).createOwner(memory -> {
            DmaRegion ring = memory.ring();
            DmaRegion db = memory.doorbell();
            MemorySegment r = ring.segment();
            for (long i = 0; i < 1L << logSize; i++) {
                Cqe64.layout().set(r, i * Cqe64.SIZE, OPCODE, CqeOpcode.INVALID.value);
                Cqe64.layout().set(r, i * Cqe64.SIZE, OWNER, 1);
            }
            UmemMemory umem = dma instanceof UmemMemory u ? u : null;
            var in = PrmCommands.CREATE_CQ.input(umem != null ? 0 : pages * (CreateCqIn.pas$ELEMENT_BITS / 8), 0);
            MemorySegment cqc = CreateCqIn.cq_context(in);
            Cqc.cqe_sz$set(cqc, CqeSize.BYTES_64);
            if (compress) {
                Cqc.cqe_comp_en$set(cqc, true);
                Cqc.mini_cqe_res_format$set(cqc, io.prmkit.mlx5.MiniCqeResFormat.HASH);
                Cqc.cqe_compression_layout$set(cqc, io.prmkit.mlx5.CqeCompressionLayout.BASIC);
            }
            Cqc.log_cq_size$set(cqc, logSize);
            Cqc.uar_page$set(cqc, uar.index());
            Cqc.c_eqn_or_apu_element$set(cqc, eqn);
            Cqc.log_page_size$set(cqc, 0);
            if (umem != null) {
                // DEVX: ring and doorbell record by umem id and offset, no page list.
                CreateCqIn.cq_umem_valid$set(in, true);
                CreateCqIn.cq_umem_id$set(in, umem.umemId());
                CreateCqIn.cq_umem_offset$set(in, umem.umemOffset(ring.busAddress()));
                Cqc.dbr_umem_valid$set(cqc, true);
                Cqc.dbr_umem_id$set(cqc, umem.umemId());
                Cqc.dbr_addr$set(cqc, umem.umemOffset(db.busAddress()));
            } else {
                Cqc.dbr_addr$set(cqc, db.busAddress());
                for (long p = 0; p < pages; p++) CreateCqIn.pas$set(in, p, ring.busAddress(p * QueueMemory.PAGE));
            }
            var created = cmd.create(PrmCommands.CREATE_CQ, in);
            return new CompletionQueue(cmd, created.handle(), CreateCqOut.cqn(created.out()), memory, logSize, uar, eqn);
        });
    }

    public int cqn() {
        return id();
    }

    /** The CQE ring (2^logSize entries of Cqe64.SIZE bytes). */
    public DmaRegion ringRegion() {
        return memory.ring();
    }

    public int logSize() {
        return logSize;
    }

    /** The CQ doorbell record ({@code cq_doorbell_record}: consumer index, arm word). */
    public MemorySegment doorbellRecord() {
        return memory.doorbellRecord(io.prmkit.mlx5.CqDoorbellRecord.SIZE);
    }

    public Uar uar() {
        return uar;
    }

    public int eqn() {
        return eqn;
    }

    @Override
    protected void destroy() {
        var in = PrmCommands.DESTROY_CQ.input();
        DestroyCqIn.cqn$set(in, id());
        destroy(PrmCommands.DESTROY_CQ, in);
    }

    @Override
    protected void release() {
        memory.close();
    }
}
