package io.prmkit.platform.vfio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.driver.dp.PacketPool;
import io.prmkit.driver.dp.RxQueue;
import io.prmkit.driver.dp.TxQueue;
import io.prmkit.driver.eth.EthPort;
import io.prmkit.driver.eth.EthPortConfig;
import io.prmkit.driver.eth.PortStats;
import io.prmkit.net.Ethhdr;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.StandInBuild;
import io.prmkit.softhca.vfio.VfioStandIn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our driver on a soft HCA through the VFIO back end's real system-call code: the back end takes
 * open, ioctl, mmap, pread/pwrite, eventfd and poll from the VFIO stand-in library, which answers
 * them for one fake ConnectX-4 served by a soft HCA on a polled BAR. Bring-up, a port, 100,000 frames
 * out and back through the loopback wire with none lost, teardown, and nothing left behind.
 */
class VfioBackEndTest {
    static final int FRAMES = 100_000;

    @Test
    void driverBringUpPortTrafficAndTeardownThroughVfio(@TempDir Path root) {
        Path lib = StandInBuild.library();
        VfioStandIn.SysfsFunction fn = VfioStandIn.SysfsFunction.connectX4();
        try (VfioStandIn standIn = VfioStandIn.attach(lib, root, fn, new SoftHca.Options(), null)) {
            SoftHca hca = standIn.device();
            long received = 0;
            long sent = 0;
            PortStats stats;
            VfioFunction f = Vfio.open(fn.pci(), lib);
            try (f) {
                assertEquals(fn.pci(), f.name());
                assertEquals(32, f.interrupts().count());
                try (Mlx5Device dev = Mlx5Device.open(f, DeviceOptions.defaults());
                     EthPort port = EthPort.open(dev, EthPortConfig.defaults().withPromiscuous(true))) {
                    PacketPool txPool = PacketPool.open(port, 256, 2048);
                    PacketPool rxPool = PacketPool.open(port, 512, 2048);
                    TxQueue tx = TxQueue.open(port, 0, txPool);
                    RxQueue rx = RxQueue.open(port, 0, rxPool);
                    int[] burst = new int[32];
                    int[] got = new int[64];
                    long deadline = System.nanoTime() + 120_000_000_000L;
                    while (received < FRAMES && System.nanoTime() < deadline) {
                        if (sent < FRAMES && sent - received <= 256 - burst.length) {
                            tx.reap();
                            int want = (int) Math.min(burst.length, FRAMES - sent);
                            int n = txPool.alloc(burst, want);
                            for (int i = 0; i < n; i++) {
                                MemorySegment frame = txPool.buffer(burst[i]);
                                frame.asSlice(0, 128).fill((byte) (sent + i));
                                Ethhdr.h_dest$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 2});
                                Ethhdr.h_source$copyFrom(frame, new byte[] {2, 0, 0, 0, 0, 1});
                                Ethhdr.h_proto$set(frame, 0x88b5);
                                frame.set(ValueLayout.JAVA_LONG_UNALIGNED, Ethhdr.SIZE, sent + i); // the frame's number
                                txPool.setLength(burst[i], 128);
                            }
                            int s = tx.send(burst, 0, n);
                            if (s < n) txPool.free(burst, s, n - s);
                            sent += s;
                        }
                        int k = rx.receive(got, got.length);
                        for (int i = 0; i < k; i++) {
                            assertEquals(128, rxPool.length(got[i]), "frame length");
                            assertEquals(received + i, rxPool.buffer(got[i]).get(ValueLayout.JAVA_LONG_UNALIGNED, Ethhdr.SIZE), "frames in order, none lost");
                        }
                        rxPool.free(got, 0, k);
                        received += k;
                        if (k == 0) Thread.onSpinWait();
                    }
                    tx.reap();
                    stats = port.queryStats();
                }
                assertEquals(FRAMES, sent);
                assertEquals(FRAMES, received, "frames lost");
                assertEquals(FRAMES, stats.txVportUnicastPackets());
                assertEquals(FRAMES, stats.rxVportUnicastPackets());
                // Teardown: the driver destroyed every object and gave back its memory.
                assertEquals(Map.of(), hca.liveObjects(), "objects left on the device");
                assertEquals(0, f.dma().allocatedBytes(), "DMA memory left mapped");
            }
            assertEquals(0, hca.dmaFaults(), "DMA faults");
            assertEquals(0, hca.dmaMappings(), "IOMMU mappings left after close");
            assertTrue(hca.interruptsRaised() > 0, "the device signalled MSI-X eventfds");
            assertEquals(null, hca.error());
            List<String> trace = standIn.trace();
            for (String call : List.of("open /dev/vfio/vfio", "ioctl container VFIO_CHECK_EXTENSION 3", "ioctl group VFIO_GROUP_SET_CONTAINER",
                    "ioctl container VFIO_SET_IOMMU 3", "ioctl group VFIO_GROUP_GET_DEVICE_FD " + fn.pci(), "ioctl device VFIO_DEVICE_GET_REGION_INFO 0",
                    "mmap device region 0", "pwrite device region 7 offset 0x4", "ioctl device VFIO_DEVICE_SET_IRQS MSI-X start 0 count 32",
                    "ioctl container VFIO_IOMMU_MAP_DMA", "ioctl container VFIO_IOMMU_UNMAP_DMA", "ioctl device VFIO_DEVICE_SET_IRQS MSI-X off",
                    "close fd")) {
                assertTrue(trace.stream().anyMatch(l -> l.startsWith(call)), "no '" + call + "' in the VFIO trace");
            }
            System.out.printf("[prmkit] VFIO back end: %d frames sent, %d received; %d VFIO calls, %d MSI-X messages%n",
                    sent, received, trace.size(), hca.interruptsRaised());
        }
    }
}
