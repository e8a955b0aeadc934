package io.prmkit.driver.arch.surfacefixture;

import io.prmkit.softhca.SoftHca;

/**
 * A deliberate violation for {@code LayeringTest.theSurfaceRuleSeesAClassReachingIntoSoftHca}: it
 * reads the device's IOMMU ({@code io.prmkit.softhca.device.Iommu}, soft-hca's internals) instead of
 * {@link SoftHca#dmaFaults()}. Never used.
 */
public final class ReachesIntoSoftHca {
    private ReachesIntoSoftHca() {}

    public static long faults(SoftHca hca) {
        return hca.iommu().faults();
    }
}
