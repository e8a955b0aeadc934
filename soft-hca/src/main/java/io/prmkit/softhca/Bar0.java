package io.prmkit.softhca;

import io.prmkit.mlx5.InitSeg;
import io.prmkit.mlx5.UarPage;
import io.prmkit.platform.Mmio;

/**
 * BAR 0 of the soft function as an MMIO trap: the initialization segment at offset 0, then one
 * 4 KiB page per UAR index. Loads and stores dispatch to the device on the caller's thread; a
 * store only records (a doorbell) and wakes the device, so nothing of the device runs inside it.
 */
final class Bar0 implements Mmio {
    static final long PAGE = 4096;
    private static final long ADDR_HIGH = InitSeg.cmdq_phy_addr_high$BIT_OFFSET / 8;
    private static final long ADDR_LOW = InitSeg.cmdq_phy_addr_low$BIT_OFFSET / 8;
    private static final long DOORBELL = InitSeg.command_doorbell_vector$BIT_OFFSET / 8;
    private static final long EQ_ARM = UarPage.eq_doorbell_arm$BYTE_OFFSET;
    private static final long EQ_NO_ARM = UarPage.eq_doorbell_no_arm$BYTE_OFFSET;

    private final SoftHca device;
    private final long size;
    private final long uarBase;

    Bar0(SoftHca device, int firstUar, int uarCount) {
        this.device = device;
        this.uarBase = firstUar * PAGE;
        this.size = (firstUar + (long) uarCount) * PAGE;
    }

    @Override
    public long size() {
        return size;
    }

    private void check(long offset, int bytes) {
        if (offset < 0 || offset > size - bytes || offset % bytes != 0) {
            throw new IllegalArgumentException("BAR 0 access of " + bytes + " bytes at 0x" + Long.toHexString(offset)
                    + " is " + (offset % bytes != 0 ? "not naturally aligned" : "outside the 0x" + Long.toHexString(size) + "-byte window"));
        }
    }

    @Override
    public int read32(long offset) {
        check(offset, 4);
        if (offset < InitSeg.SIZE) return device.initSegment().read32(offset);
        return 0; // UAR pages and the gap after the init segment read as zero
    }

    @Override
    public long read64(long offset) {
        check(offset, 8);
        if (offset < InitSeg.SIZE) {
            return (long) device.initSegment().read32(offset) << Integer.SIZE | Integer.toUnsignedLong(device.initSegment().read32(offset + 4));
        }
        return 0;
    }

    @Override
    public void write32(long offset, int value) {
        check(offset, 4);
        if (offset < uarBase) {
            initSegWrite(offset, value);
        } else {
            uarWrite(offset, Integer.toUnsignedLong(value), 4);
        }
    }

    @Override
    public void write64(long offset, long value) {
        check(offset, 8);
        if (offset < uarBase) {
            initSegWrite(offset, (int) (value >>> Integer.SIZE));
            initSegWrite(offset + 4, (int) value);
        } else {
            uarWrite(offset, value, 8);
        }
    }

    private void initSegWrite(long offset, int value) {
        if (offset == ADDR_HIGH) {
            device.commandQueue().writeAddressHigh(value);
        } else if (offset == ADDR_LOW) {
            device.commandQueue().writeAddressLow(value);
        } else if (offset == DOORBELL) {
            device.commandQueue().doorbell(value);
            device.wake();
        }
        // Everything else in the init segment is read-only (or INTx, which MSI-X functions ignore).
    }

    private void uarWrite(long offset, long value, int bytes) {
        int uar = (int) (offset / PAGE);
        long inPage = offset % PAGE;
        if (inPage == EQ_ARM || inPage == EQ_NO_ARM) {
            // A 64-bit store here carries the EQ doorbell in its first dword.
            int word = bytes == 8 ? (int) (value >>> Integer.SIZE) : (int) value;
            device.eqDoorbell(uar, word, inPage == EQ_ARM);
        } else {
            device.datapath().uarWrite(uar, inPage, value, bytes);
        }
    }
}
