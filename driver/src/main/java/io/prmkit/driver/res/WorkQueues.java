package io.prmkit.driver.res;

import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqType;
import io.prmkit.driver.core.UmemMemory;
import io.prmkit.platform.DmaMemory;
import io.prmkit.platform.DmaRegion;
import java.lang.foreign.MemorySegment;

/** The {@code wq} part shared by SQs and RQs (PRM "Work Queue Format"): cyclic, 4 KiB pages. */
final class WorkQueues {

    private WorkQueues() {
    }

    /**
     * Fills the cyclic wq at byte {@code at} of the command input {@code in} (2^logSize entries of
     * 2^logStride bytes in {@code memory}'s ring) and its page list, which runs past the wq's fixed part; in
     * memory registered as a umem (DEVX), the umem's id and offsets instead of the page list.
     */
    static void describe(MemorySegment in, long at, DmaMemory dma, QueueMemory memory, int pd, int uarPage, int logStride, int logSize) {
        DmaRegion ring = memory.ring();
        DmaRegion doorbell = memory.doorbell();
        MemorySegment wq = in.asSlice(at);
        Wq.wq_type$set(wq, WqType.CYCLIC);
        Wq.pd$set(wq, pd);
        Wq.uar_page$set(wq, uarPage);
        Wq.log_wq_stride$set(wq, logStride);
        Wq.log_wq_pg_sz$set(wq, 0);
        Wq.log_wq_sz$set(wq, logSize);
        if (dma instanceof UmemMemory umem) {
            Wq.dbr_umem_valid$set(wq, true);
            Wq.dbr_umem_id$set(wq, umem.umemId());
            Wq.dbr_addr$set(wq, umem.umemOffset(doorbell.busAddress()));
            Wq.wq_umem_valid$set(wq, true);
            Wq.wq_umem_id$set(wq, umem.umemId());
            Wq.wq_umem_offset$set(wq, umem.umemOffset(ring.busAddress()));
            return;
        }
        Wq.dbr_addr$set(wq, doorbell.busAddress());
        long pages = ring.size() / QueueMemory.PAGE;
        for (long p = 0; p < pages; p++) {
            MemorySegment pas = Wq.pas$elem(in, at, p);
            long a = ring.busAddress(p * QueueMemory.PAGE);
            CmdPas.pa$set(pas, a);
        }
    }

    /** Bytes of the page list after the wq for a ring of {@code ringBytes} in {@code dma} (none in a umem). */
    static long pasBytes(DmaMemory dma, long ringBytes) {
        return dma instanceof UmemMemory ? 0 : QueueMemory.pages(ringBytes) * CmdPas.SIZE;
    }
}
