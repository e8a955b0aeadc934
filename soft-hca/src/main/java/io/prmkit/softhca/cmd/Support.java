package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.softhca.device.DeviceFields;
import io.prmkit.softhca.device.Queues;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Helpers the command handlers share: capability limits, context copies, page lists. */
final class Support {
    private Support() {}

    static final ValueLayout.OfLong BE_LONG = io.prmkit.layout.PrmLayout.BE_LONG;

    /** The value of a general capability field (current page). */
    static long cap(HcaState hca, String field) {
        return DeviceFields.get(CmdHcaCap.layout(), hca.general(), 0, field);
    }

    /** Refuses a new object when {@code live} of them already exist and the cap allows 2^log_max. */
    static void checkCount(Command c, HcaState hca, int live, String logMaxField) {
        long logMax = cap(hca, logMaxField);
        if (logMax < 63 && live >= 1L << logMax) throw c.fail(Syndrome.OUT_OF_NUMBERS, live + " objects, " + logMaxField + " = " + logMax);
    }

    /** Refuses a log size above a log_max_* capability. */
    static void checkLogSize(Command c, HcaState hca, int logSize, String logMaxField) {
        long max = cap(hca, logMaxField);
        if (logSize > max) throw c.fail(Syndrome.SIZE_ABOVE_MAX, "log size " + logSize + " > " + logMaxField + " " + max);
    }

    /** A device-side copy of {@code size} bytes at {@code offset} of the command input. */
    static MemorySegment copy(MemorySegment in, long offset, long size) {
        MemorySegment s = MemorySegment.ofArray(new byte[(int) size]);
        MemorySegment.copy(in, offset, s, 0, size);
        return s;
    }

    /**
     * A ring of {@code bytes} bytes whose page list (64-bit bus addresses, the 8 bytes of a
     * {@code cmd_pas} read as one big-endian word) starts at {@code pasOffset} of the input: every
     * page must be aligned to the ring's page size and mapped for DMA.
     */
    static Queues.Ring ring(Command c, HcaState hca, long pasOffset, long bytes, int logPageSize) {
        long page = 4096L << logPageSize;
        long n = (bytes + page - 1) / page;
        if (c.inLength() < pasOffset + 8 * n) throw c.fail(Syndrome.INPUT_TOO_SHORT, n + " page addresses needed");
        long[] pas = new long[(int) n];
        for (int i = 0; i < n; i++) {
            long pa = c.in.get(BE_LONG, pasOffset + 8L * i);
            if (pa % page != 0 || !hca.iommu.isMapped(pa, Math.min(page, bytes))) {
                throw c.fail(Syndrome.RING_NOT_MAPPED, "page " + i + " at 0x" + Long.toHexString(pa));
            }
            pas[i] = pa;
        }
        return new Queues.Ring(pas, logPageSize, 0);
    }

    /** Refuses a doorbell record that is not 8-byte aligned and mapped. */
    static void checkDoorbellRecord(Command c, HcaState hca, long dbr) {
        if (dbr % 8 != 0 || !hca.iommu.isMapped(dbr, 8)) throw c.fail(Syndrome.RING_NOT_MAPPED, "doorbell record 0x" + Long.toHexString(dbr));
    }
}
