package io.prmkit.softhca.device;

import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;

/**
 * What the datapath gets from the device: the IOMMU, the object registry, event posting, the
 * current capability pages (by cap type, read-only by convention) and a way to wake the device
 * thread from a doorbell.
 */
public record DeviceContext(Iommu iommu, DeviceObjects objects, Events events, IntFunction<MemorySegment> currentCaps, Runnable waker) {
    public void wake() {
        waker.run();
    }
}
