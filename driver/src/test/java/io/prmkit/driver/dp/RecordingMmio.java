package io.prmkit.driver.dp;

import io.prmkit.platform.Mmio;
import java.util.ArrayList;
import java.util.List;

/** A UAR window that records the 64-bit doorbell stores and hands each to a listener (the test's device). */
final class RecordingMmio implements Mmio {
    record Store(long offset, long value) {}

    final List<Store> stores = new ArrayList<>();
    Runnable onDoorbell = () -> {};

    @Override
    public long size() {
        return 1 << 16;
    }

    @Override
    public int read32(long offset) {
        return 0;
    }

    @Override
    public long read64(long offset) {
        return 0;
    }

    @Override
    public void write32(long offset, int value) {
        throw new AssertionError("the datapath rings doorbells with 64-bit stores only");
    }

    @Override
    public void write64(long offset, long value) {
        stores.add(new Store(offset, value));
        onDoorbell.run();
    }
}
