package io.prmkit.driver.core;

import static io.prmkit.layout.PrmLayout.BE_INT;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.DeallocUarIn;
import io.prmkit.mlx5.EqDoorbell;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.Mmio;
import java.lang.foreign.MemorySegment;

/**
 * A User Access Region (PRM "UAR"): one 4 KiB doorbell page. Allocated by ALLOC_UAR ({@link
 * #allocate}), page {@code index} sits at BAR 0 offset {@code index * 4096} (4 KiB UARs); handed out
 * by someone else ({@link #mapped}: rdma-core's {@code mlx5dv_devx_alloc_uar}), it is a window of its
 * own. EQ and CQ doorbells are composed with the generated {@code eq_doorbell}/{@code cq_arm_doorbell}
 * accessors and written with one MMIO store at their {@code uar_page} offset; SQ doorbells go to the
 * BlueFlame register at {@link #doorbellOffset()}.
 */
public final class Uar implements AutoCloseable {

    public static final long PAGE = 4096;

    private final Mmio bar;
    private final int index;
    private final long barOffset;
    private final long doorbellOffset;
    private final Runnable free;
    private boolean closed;

    private Uar(Mmio bar, int index, long barOffset, long doorbellOffset, Runnable free) {
        this.bar = bar;
        this.index = index;
        this.barOffset = barOffset;
        this.doorbellOffset = doorbellOffset;
        this.free = free;
    }

    /** ALLOC_UAR; {@link #close()} runs DEALLOC_UAR. */
    public static Uar allocate(CommandTransport cmd, Mmio bar) {
        var in = PrmCommands.ALLOC_UAR.input();
        var out = cmd.execute(PrmCommands.ALLOC_UAR, in);
        int index = AllocUarOut.uar(out);
        if ((index + 1) * PAGE > bar.size())
            throw new io.prmkit.driver.Mlx5Exception("ALLOC_UAR returned page " + index + ", outside BAR 0 (" + bar.size() + " bytes)");
        return new Uar(bar, index, index * PAGE, index * PAGE + UarPage.bf_registers$BYTE_OFFSET, () -> {
            var d = PrmCommands.DEALLOC_UAR.input();
            DeallocUarIn.uar$set(d, index);
            cmd.execute(PrmCommands.DEALLOC_UAR, d);
        });
    }

    /**
     * UAR page {@code index} that someone else allocated and mapped as {@code page} (4 KiB, offset 0),
     * with its doorbell register at {@code doorbellOffset}; {@link #close()} runs {@code free}.
     */
    public static Uar mapped(Mmio page, int index, long doorbellOffset, Runnable free) {
        if (page.size() < PAGE) throw new IllegalArgumentException("a UAR page is " + PAGE + " bytes, the window has " + page.size());
        if (doorbellOffset < 0 || doorbellOffset >= PAGE || (doorbellOffset & 7) != 0)
            throw new IllegalArgumentException("doorbell offset 0x" + Long.toHexString(doorbellOffset) + " is not an 8-byte register of the page");
        return new Uar(page, index, 0, doorbellOffset, free);
    }

    /** UAR page index (what {@code uar_page} fields take). */
    public int index() {
        return index;
    }

    /** Offset of this page in {@link #bar()}. */
    public long barOffset() {
        return barOffset;
    }

    /** Offset in {@link #bar()} of the BlueFlame register SQ doorbells go to. */
    public long doorbellOffset() {
        return doorbellOffset;
    }

    /** The window the page is in: BAR 0, or the page itself. */
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

    /** DEALLOC_UAR (or the allocator's free). */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        free.run();
    }
}
