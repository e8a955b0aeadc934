package io.prmkit.driver.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.driver.core.Mlx5Device;
import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import io.prmkit.softhca.SoftHca;
import io.prmkit.softhca.vfio.StandInBuild;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The driver above {@code cmd} on both command transports, by the same code ({@link PortScenario}):
 * <ul>
 *   <li>{@code COMMAND_QUEUE}: our bring-up and command queue on a soft HCA (in this JVM);</li>
 *   <li>{@code DEVX}: rdma-core's DEVX, with rdma-core's own mlx5_vfio provider (the system's
 *       libmlx5, an independent mlx5 driver) bringing the soft HCA up through the VFIO stand-in, in a
 *       JVM of its own with the stand-in preloaded ({@link DevxBackEndMain}). Objects are created with
 *       {@code mlx5dv_devx_obj_create}, rings and packet buffers are one registered umem, doorbells go
 *       to the UAR page from {@code mlx5dv_devx_alloc_uar}.</li>
 * </ul>
 * Each: a port's objects (PD, CQs, SQ, RQ, TIS, TIR, a flow rule), a refused command, 100,000 frames
 * out and back with none lost, everything destroyed and nothing left on the device.
 */
class DevxBackEndTest {
    static final long FRAMES = 100_000;

    enum Transport { COMMAND_QUEUE, DEVX }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void portObjectsTrafficAndTeardown(Transport transport, @TempDir Path tmp) throws Exception {
        if (transport == Transport.COMMAND_QUEUE) {
            try (SoftHca hca = SoftHca.create()) {
                PortScenario.Result r;
                try (Mlx5Device dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults())) {
                    r = PortScenario.run(dev, hca::liveObjects, FRAMES);
                }
                assertEquals(FRAMES, r.received());
                assertEquals(Map.of(), hca.liveObjects(), "objects left on the device");
                assertEquals(null, hca.error());
            }
            return;
        }
        HostTools.libmlx5();
        Path lib = StandInBuild.library();
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                DevxBackEndMain.class.getName(), lib.toString(), tmp.resolve("root").toString(), Long.toString(FRAMES));
        pb.environment().put("LD_PRELOAD", lib.toString());
        Child.Result run = Child.run(pb, Duration.ofSeconds(280));
        Path log = Path.of("target", "devx-back-end.log");
        Files.writeString(log, run.output(), StandardCharsets.UTF_8);
        List<String> lines = List.of(run.stdout().split("\n"));
        String failed = lines.stream().filter(l -> l.startsWith("FAILED ")).findFirst().orElse(null);
        assertEquals(null, failed, "the scenario over DEVX (full output in " + log + ")");
        assertTrue(lines.contains("PASSED"), "no PASSED line (exit " + run.exit() + ", full output in " + log + ")");
        assertEquals(0, run.exit(), "exit of the DEVX JVM (output in " + log + ")");
        assertTrue(lines.contains("RESULT sent=" + FRAMES + " received=" + FRAMES + " tx=" + FRAMES + " rx=" + FRAMES), "traffic: " + lines);
        assertTrue(lines.contains("MEMORY 0"), "DEVX memory left allocated when the port closed");
        assertTrue(lines.contains("LIVE {}"), "objects left on the device after DEVX and mlx5_vfio closed: " + lines);
        assertTrue(lines.contains("FAULTS 0 mappings 0"), "DMA faults or IOMMU mappings left");
        assertTrue(lines.contains("ERROR null"), "the device model failed");
        // every object through mlx5dv_devx_obj_create, in the port's order, and the umem-backed queues
        List<String> cmds = lines.stream().filter(l -> l.startsWith("CMD ")).map(l -> l.substring(4, l.indexOf(" in="))).toList();
        for (String c : List.of("QUERY_HCA_CAP (0x100) op_mod 0x1 (GENERAL_DEVICE_CUR)", "ALLOC_PD (0x800) op_mod 0x0", "ALLOC_TRANSPORT_DOMAIN (0x816) op_mod 0x0",
                "CREATE_MKEY (0x200) op_mod 0x0", "CREATE_TIS (0x912) op_mod 0x0", "CREATE_CQ (0x400) op_mod 0x0", "CREATE_SQ (0x904) op_mod 0x0",
                "MODIFY_SQ (0x905) op_mod 0x0", "CREATE_RQ (0x908) op_mod 0x0", "CREATE_TIR (0x900) op_mod 0x0", "CREATE_FLOW_TABLE (0x930) op_mod 0x0",
                "SET_FLOW_TABLE_ENTRY (0x936) op_mod 0x0 (NEW)", "DESTROY_SQ (0x906) op_mod 0x0", "DEALLOC_PD (0x801) op_mod 0x0"))
            assertTrue(cmds.contains(c), "no " + c + " in the DEVX trace: " + cmds);
        System.out.println("[prmkit] DEVX over mlx5_vfio on the soft HCA: " + lines.stream().filter(l -> l.startsWith("RESULT")).findFirst().orElseThrow()
                + ", " + cmds.size() + " commands through DEVX");
    }
}
