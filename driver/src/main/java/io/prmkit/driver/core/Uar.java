package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.DeallocUarIn;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A User Access Region (PRM "UAR"): one 4 KiB doorbell page of BAR 0, allocated by ALLOC_UAR.
 * Page {@code index} sits at BAR offset {@code index * 4096} (4 KiB UARs). EQ and CQ doorbells are
 * composed with the generated {@code eq_doorbell}/{@code cq_arm_doorbell} accessors and written with
 * one MMIO store at their {@code uar_page} offset.
 */
public final class Uar implements AutoCloseable {

    public static final long PAGE = 4096;
    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final CommandInterface cmd;
    private final Mmio bar;
    private final int index;
    private boolean closed;

    private Uar(CommandInterface cmd, Mmio bar, int index) {
        this.cmd = cmd;
        this.bar = bar;
        this.index = index;
    }

    /** ALLOC_UAR. */
    public static Uar allocate(CommandInterface cmd, Mmio bar) {
        var in = PrmCommands.ALLOC_UAR.input();
        var out = cmd.execute(PrmCommands.ALLOC_UAR, in);
        int index = AllocUarOut.uar(out);
        if ((index + 1) * PAGE > bar.size())
            throw new io.prmkit.driver.Mlx5Exception("ALLOC_UAR returned page " + index + ", outside BAR 0 (" + bar.size() + " bytes)");
        return new Uar(cmd, bar, index);
    }

    /** UAR page index (what {@code uar_page} fields take). */
    public int index() {
        return index;
    }

    /** BAR 0 offset of this page. */
    public long barOffset() {
        return index * PAGE;
    }

    public Mmio bar() {
        return bar;
    }

    /** EQ doorbell: report {@code consumerIndex} for EQ {@code eqn}, re-arming it when {@code arm}. */
    public void eqDoorbell(int eqn, int consumerIndex, boolean arm) {
        MemorySegment w = MemorySegment.ofArray(new byte[(int) EqDoorbell.SIZE]);
        EqDoorbell.eqn$set(w, eqn);
        EqDoorbell.consumer_index$setUnchecked(w, consumerIndex);
        long at = barOffset() + (arm ? UarPage.eq_doorbell_arm$BYTE_OFFSET : UarPage.eq_doorbell_no_arm$BYTE_OFFSET);
        bar.write32(at, w.get(BE_INT, 0));
    }

    /** DEALLOC_UAR. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        var in = PrmCommands.DEALLOC_UAR.input();
        DeallocUarIn.uar$set(in, index);
        cmd.execute(PrmCommands.DEALLOC_UAR, in);
    }
}
