package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.DestroyEqIn;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.PrmConstants;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import io.prmkit.platform.Interrupts;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An event queue (PRM "Event Queues"): a ring of 64-byte EQEs the device writes, bound to one MSI-X
 * vector. All entries start with owner = 1; software owns entry {@code ci & (n - 1)} when its owner
 * bit equals {@code (ci >> log_eq_size) & 1}. The interrupt handler consumes entries in order,
 * hands each to the {@code handler}, reports the consumer index every {@code eq_spare_entries / 2}
 * entries (the device considers the EQ overrun beyond that) and re-arms at the end.
 */
public final class Eq implements AutoCloseable {

    private static final long PAGE = 4096;
    private static final PrmLayout.Field OWNER = Eqe.layout().field("owner").orElseThrow();

    private final CommandInterface cmd;
    private final Interrupts irq;
    private final Uar uar;
    private final DmaRegion ring;
    private final int logSize;
    private final int vector;
    private final int eqn;
    private final Consumer<MemorySegment> handler;
    private int ci;
    private volatile RuntimeException handlerError;
    private boolean closed;

    private Eq(CommandInterface cmd, Interrupts irq, Uar uar, DmaRegion ring, int logSize, int vector, int eqn,
                       Consumer<MemorySegment> handler) {
        this.cmd = cmd;
        this.irq = irq;
        this.uar = uar;
        this.ring = ring;
        this.logSize = logSize;
        this.vector = vector;
        this.eqn = eqn;
        this.handler = handler;
    }

    /**
     * CREATE_EQ with 2^{@code logSize} entries on {@code vector}, subscribed to {@code events},
     * then arms it. {@code handler} runs on the interrupt thread for each EQE: keep it short.
     */
    public static Eq create(CommandInterface cmd, DmaMemory dma, Interrupts irq, Uar uar, int vector, int logSize,
                                    Set<EqeType> events, int logMaxEqSize, Consumer<MemorySegment> handler) {
        if (logSize > logMaxEqSize)
            throw new Mlx5Exception("CREATE_EQ: 2^" + logSize + " entries asked, the device allows 2^" + logMaxEqSize
                    + " (capability cmd_hca_cap.log_max_eq_sz)");
        if (vector < 0 || vector >= irq.count())
            throw new Mlx5Exception("CREATE_EQ: vector " + vector + " does not exist (the function has " + irq.count() + ")");
        long bytes = Eqe.SIZE << logSize;
        long pages = (bytes + PAGE - 1) / PAGE;
        DmaRegion ring = dma.allocate(pages * PAGE, PAGE);
        try {
            MemorySegment r = ring.segment();
            for (long i = 0; i < (1L << logSize); i++) Eqe.layout().set(r, i * Eqe.SIZE, OWNER, 1); // owner init value
            long pasBytes = CmdPas.SIZE * pages;
            var in = PrmCommands.CREATE_EQ.input(pasBytes, 0);
            MemorySegment eqc = CreateEqIn.eq_context_entry(in);
            Eqc.log_eq_size$set(eqc, logSize);
            Eqc.uar_page$set(eqc, uar.index());
            Eqc.intr$set(eqc, vector);
            Eqc.log_page_size$set(eqc, 0); // 4 KiB << 0
            long mask = 0;
            for (EqeType t : events) mask |= 1L << t.value;
            CreateEqIn.event_bitmask$set(in, 0, mask);
            for (long p = 0; p < pages; p++) CreateEqIn.pas$set(in, p, ring.busAddress(p * PAGE));
            Eq[] self = new Eq[1];
            irq.bind(vector, v -> {
                Eq q = self[0];
                if (q != null) q.interrupt();
            });
            var out = cmd.execute(PrmCommands.CREATE_EQ, in);
            Eq q = new Eq(cmd, irq, uar, ring, logSize, vector, CreateEqOut.eq_number(out), handler);
            self[0] = q;
            synchronized (q) {
                uar.eqDoorbell(q.eqn, 0, true);
            }
            return q;
        } catch (RuntimeException e) {
            irq.bind(vector, null);
            ring.close();
            throw e;
        }
    }

    public int eqn() {
        return eqn;
    }

    public int vector() {
        return vector;
    }

    /** The last exception an event handler threw (events go on being delivered), or null. */
    public RuntimeException handlerError() {
        return handlerError;
    }

    /** Drains the ready EQEs; called on the interrupt thread (also safe to call from a poller). */
    public synchronized void interrupt() {
        if (closed) return;
        MemorySegment r = ring.segment();
        long mask = (1L << logSize) - 1;
        int sinceUpdate = 0;
        while (true) {
            long at = (ci & mask) * Eqe.SIZE;
            MemorySegment eqe = r.asSlice(at, Eqe.SIZE);
            if ((Eqe.owner(eqe) ? 1 : 0) != ((ci >>> logSize) & 1)) break;
            VarHandle.loadLoadFence(); // read the entry only after its owner bit
            ci++;
            try {
                handler.accept(eqe);
            } catch (RuntimeException e) {
                handlerError = e; // a handler bug must not stop event delivery; kept for diagnostics
            }
            if (++sinceUpdate >= PrmConstants.eq_spare_entries / 2) {
                uar.eqDoorbell(eqn, ci, false); // the doorbell keeps the low 24 bits (consumer_index)
                sinceUpdate = 0;
            }
        }
        uar.eqDoorbell(eqn, ci, true);
    }

    /** Unbinds the vector and DESTROY_EQ; if that fails, the ring is freed only when the command interface closes. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        irq.bind(vector, null);
        try {
            var in = PrmCommands.DESTROY_EQ.input();
            DestroyEqIn.eq_number$set(in, eqn);
            cmd.execute(PrmCommands.DESTROY_EQ, in);
        } catch (RuntimeException e) {
            cmd.freeAtClose(ring::close); // the device may still write the ring until DISABLE_HCA
            throw e;
        }
        ring.close();
    }
}
