package io.prmkit.driver.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.cmd.CommandTrace;
import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * The driver above {@code cmd} on both command transports, by the same code ({@link PortScenario}):
 * <ul>
 *   <li>{@code COMMAND_QUEUE}: our bring-up and command queue on a soft HCA;</li>
 *   <li>{@code DEVX}: rdma-core's DEVX, with rdma-core's own mlx5_vfio provider (the system's
 *       libmlx5, an independent mlx5 driver) bringing the soft HCA up through the VFIO stand-in
 *       ({@link BothTransports}: in a JVM of its own with the stand-in preloaded). Objects are created
 *       with {@code mlx5dv_devx_obj_create}, rings and packet buffers are one registered umem,
 *       doorbells go to the UAR page from {@code mlx5dv_devx_alloc_uar}.</li>
 * </ul>
 * Each: a port's objects (PD, CQs, SQ, RQ, TIS, TIR, a flow rule), a refused command, 100,000 frames
 * out and back with none lost, everything destroyed and nothing left on the device once the function
 * is closed (our teardown, or mlx5_vfio's), no DMA fault and no IOMMU mapping left.
 */
@BothTransports
class DevxBackEndTest {
    static final long FRAMES = 100_000;

    @Parameter
    Transport transport;

    @Test
    void portObjectsTrafficAndTeardown() {
        List<String> trace = new CopyOnWriteArrayList<>();
        PortScenario.Result r;
        long memoryLeft = 0;
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options(),
                DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)).withTrace(CommandTrace.lines(trace::add, false)))) {
            SoftHca hca = d.hca();
            r = PortScenario.run(d.function(), hca::liveObjects, FRAMES);
            if (d.function() instanceof DevxDevice devx) memoryLeft = devx.dma().allocatedBytes();
            d.function().close();
            assertEquals(Map.of(), hca.liveObjects(), "objects left on the device after the function closed");
            assertEquals(0, hca.dmaFaults(), "DMA faults");
            assertEquals(0, hca.dmaMappings(), "IOMMU mappings left");
            assertEquals(null, hca.error(), "the device model failed");
        }
        assertEquals(FRAMES, r.received());
        assertEquals(FRAMES, r.rxPackets());
        assertEquals(0, memoryLeft, "DEVX memory left allocated when the port closed");
        if (transport == Transport.DEVX) {
            // every object through mlx5dv_devx_obj_create, in the port's order, and the umem-backed queues
            List<String> cmds = trace.stream().filter(l -> l.contains(" via=devx ")).map(l -> l.substring(0, l.indexOf(" in="))).toList();
            for (String c : List.of("QUERY_HCA_CAP (0x100) op_mod 0x1 (GENERAL_DEVICE_CUR)", "ALLOC_PD (0x800) op_mod 0x0", "ALLOC_TRANSPORT_DOMAIN (0x816) op_mod 0x0",
                    "CREATE_MKEY (0x200) op_mod 0x0", "CREATE_TIS (0x912) op_mod 0x0", "CREATE_CQ (0x400) op_mod 0x0", "CREATE_SQ (0x904) op_mod 0x0",
                    "MODIFY_SQ (0x905) op_mod 0x0", "CREATE_RQ (0x908) op_mod 0x0", "CREATE_TIR (0x900) op_mod 0x0", "CREATE_FLOW_TABLE (0x930) op_mod 0x0",
                    "SET_FLOW_TABLE_ENTRY (0x936) op_mod 0x0 (NEW)", "DESTROY_SQ (0x906) op_mod 0x0", "DEALLOC_PD (0x801) op_mod 0x0"))
                assertTrue(cmds.contains(c), "no " + c + " in the DEVX trace: " + cmds);
            assertEquals(trace.size(), cmds.size(), "every command went through DEVX: " + trace);
            System.out.println("[prmkit] DEVX over mlx5_vfio on the soft HCA: " + r + ", " + cmds.size() + " commands through DEVX");
        }
    }
}
