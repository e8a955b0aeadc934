package io.prmkit.driver.core;

import io.prmkit.driver.Mlx5Exception;
import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.CommandTimeoutException;
import io.prmkit.driver.cmd.DeviceFatalException;
import io.prmkit.mlx5.ManagePagesIn;
import io.prmkit.mlx5.ManagePagesOpMod;
import io.prmkit.mlx5.ManagePagesOut;
import io.prmkit.mlx5.QueryPagesIn;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.QueryPagesOut;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.platform.DmaException;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PRM "Firmware Pages" (QUERY_PAGES / MANAGE_PAGES): the device keeps its context memory (ICM) in
 * 4 KiB host pages the driver lends it. The driver asks how many pages each stage needs (boot,
 * init, regular), gives them, answers page-request events later (give, or take back when the count
 * is negative), and reclaims every page at teardown. Each page is its own 4 KiB-aligned DMA region,
 * remembered by bus address so the device can return any of them.
 *
 * <p>Thread safety: calls are serialised (the page worker and teardown may both use it).
 */
public final class FirmwarePages {

    static final long PAGE = 4096;
    /** Pages per MANAGE_PAGES command, so one command's mailbox chain stays small (Linux: about 500). */
    static final int PER_COMMAND = 512;

    private final CommandInterface cmd;
    private final DmaMemory dma;
    private final long limit;
    private final Map<Long, DmaRegion> given = new LinkedHashMap<>();
    private long failures;

    /** @param limit most pages the driver lends at once (beyond it, it answers ALLOCATION_FAIL) */
    public FirmwarePages(CommandInterface cmd, DmaMemory dma, long limit) {
        this.cmd = cmd;
        this.dma = dma;
        this.limit = limit;
    }

    /** QUERY_PAGES: pages the firmware wants for {@code stage} (negative: it has pages to return). */
    public int query(QueryPagesOpMod stage) {
        var in = PrmCommands.QUERY_PAGES.input();
        QueryPagesIn.op_mod$set(in, stage);
        QueryPagesIn.function_id$set(in, 0);
        var out = cmd.execute(PrmCommands.QUERY_PAGES, in);
        return QueryPagesOut.num_pages(out);
    }

    /** QUERY_PAGES for a stage, then gives (or takes back) what it says. Returns the pages moved. */
    public synchronized int satisfy(QueryPagesOpMod stage) {
        int n = query(stage);
        if (n > 0) give(n);
        else if (n < 0) reclaim(-n);
        return n;
    }

    /**
     * MANAGE_PAGES ALLOCATION_SUCCESS with {@code n} new pages. When the pages cannot be allocated
     * (DMA memory exhausted, or the configured limit reached) it sends ALLOCATION_FAIL instead, as
     * Linux does, and throws.
     */
    public synchronized void give(int n) {
        int done = 0;
        while (done < n) {
            int batch = Math.min(PER_COMMAND, n - done);
            List<DmaRegion> pages = new ArrayList<>(batch);
            try {
                if (given.size() + batch > limit)
                    throw new DmaException("the driver's page limit of " + limit + " pages is reached (" + given.size() + " lent)");
                for (int i = 0; i < batch; i++) pages.add(dma.allocate(PAGE, PAGE));
            } catch (DmaException e) {
                for (DmaRegion r : pages) r.close();
                allocationFail();
                throw new Mlx5Exception("firmware asked for " + n + " pages; could not allocate them (" + e.getMessage()
                        + "); answered MANAGE_PAGES ALLOCATION_FAIL", e);
            }
            var in = PrmCommands.MANAGE_PAGES.input((long) batch * (ManagePagesIn.pas$ELEMENT_BITS / 8), 0);
            ManagePagesIn.op_mod$set(in, ManagePagesOpMod.ALLOCATION_SUCCESS);
            ManagePagesIn.function_id$set(in, 0);
            ManagePagesIn.input_num_entries$set(in, batch);
            for (int i = 0; i < batch; i++) ManagePagesIn.pas$set(in, i, pages.get(i).busAddress());
            try {
                cmd.execute(PrmCommands.MANAGE_PAGES, in);
            } catch (CommandTimeoutException | DeviceFatalException e) {
                // The firmware may have taken them: keep them lent until DISABLE_HCA (forget() frees them).
                for (DmaRegion r : pages) given.put(r.busAddress(), r);
                throw e;
            } catch (RuntimeException e) {
                for (DmaRegion r : pages) r.close(); // refused: the firmware did not take them
                throw e;
            }
            for (DmaRegion r : pages) given.put(r.busAddress(), r);
            done += batch;
        }
    }

    private void allocationFail() {
        failures++;
        var in = PrmCommands.MANAGE_PAGES.input();
        ManagePagesIn.op_mod$set(in, ManagePagesOpMod.ALLOCATION_FAIL);
        ManagePagesIn.function_id$set(in, 0);
        cmd.execute(PrmCommands.MANAGE_PAGES, in);
    }

    /**
     * MANAGE_PAGES HCA_RETURN_PAGES for up to {@code n} pages; frees what the firmware returns.
     * Returns the number returned (the firmware may return fewer than asked).
     */
    public synchronized int reclaim(int n) {
        int got = 0;
        while (got < n) {
            int batch = Math.min(PER_COMMAND, n - got);
            var in = PrmCommands.MANAGE_PAGES.input();
            ManagePagesIn.op_mod$set(in, ManagePagesOpMod.HCA_RETURN_PAGES);
            ManagePagesIn.function_id$set(in, 0);
            ManagePagesIn.input_num_entries$set(in, batch);
            long outLen = PrmCommands.MANAGE_PAGES.outBytes() + (long) batch * (ManagePagesOut.pas$ELEMENT_BITS / 8);
            var out = cmd.execute(PrmCommands.MANAGE_PAGES, in, outLen);
            int returned = ManagePagesOut.output_num_entries(out);
            if (returned < 0 || returned > batch)
                throw new Mlx5Exception("MANAGE_PAGES HCA_RETURN_PAGES: firmware returned " + returned + " entries for " + batch + " asked");
            for (int i = 0; i < returned; i++) {
                long addr = ManagePagesOut.pas$elem(out, i);
                DmaRegion r = given.remove(addr);
                if (r == null)
                    throw new Mlx5Exception("MANAGE_PAGES HCA_RETURN_PAGES: firmware returned page 0x" + Long.toHexString(addr)
                            + ", which the driver never gave it");
                r.close();
            }
            got += returned;
            if (returned < batch) break;
        }
        return got;
    }

    /** Reclaims every lent page (teardown, after TEARDOWN_HCA). Returns the pages still lent (0 on success). */
    public synchronized long reclaimAll() {
        while (!given.isEmpty()) {
            int n = (int) Math.min(given.size(), PER_COMMAND);
            if (reclaim(n) == 0) break; // no progress: the firmware keeps the rest
        }
        return given.size();
    }

    /**
     * Frees every page still lent without asking the firmware: only after DISABLE_HCA or when the
     * device is dead, so nothing can touch them any more.
     */
    public synchronized long forget() {
        long n = given.size();
        for (DmaRegion r : given.values()) r.close();
        given.clear();
        return n;
    }

    /** Pages currently lent to the firmware. */
    public synchronized long lent() {
        return given.size();
    }

    /** ALLOCATION_FAIL answers sent so far. */
    public synchronized long allocationFailures() {
        return failures;
    }
}
