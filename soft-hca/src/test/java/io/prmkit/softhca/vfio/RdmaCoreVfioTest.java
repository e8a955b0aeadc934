package io.prmkit.softhca.vfio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rdma-core's own mlx5 VFIO driver (mlx5_vfio in the system's libmlx5, an independent mlx5 driver
 * written by NVIDIA) brings up the soft HCA through the VFIO stand-in, preloaded into a JVM of its
 * own ({@link RdmaCoreVfioMain}), and runs DEVX commands on it. Every command it sent is listed
 * in that JVM's output and checked here.
 */
class RdmaCoreVfioTest {
    static List<String> lines;

    @BeforeAll
    static void runMlx5Vfio(@TempDir Path tmp) throws Exception {
        HostTools.libmlx5();
        Path lib = StandInBuild.library();
        Path root = tmp.resolve("root");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                RdmaCoreVfioMain.class.getName(), lib.toString(), root.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("LD_PRELOAD", lib.toString());
        Child.Result r = Child.run(pb, Duration.ofSeconds(180));
        Path log = Path.of("target", "rdma-core-vfio.log");
        Files.writeString(log, r.output(), StandardCharsets.UTF_8);
        lines = List.of(r.stdout().split("\n"));
        List<String> cmds = new ArrayList<>();
        for (String l : lines) if (l.startsWith("CMD ") || l.startsWith("STEP ")) cmds.add(l);
        System.out.println("[prmkit] mlx5_vfio on the soft HCA (exit " + r.exit() + "; full output in " + log + "):\n  "
                + String.join("\n  ", cmds));
    }

    static boolean has(String prefix) {
        return lines.stream().anyMatch(l -> l.startsWith(prefix));
    }

    @Test
    void mlx5VfioFindsTheFakeFunctionAndCompletesItsBringUp() {
        assertTrue(has("STEP get_vfio_device_list ok"), "mlx5dv_get_vfio_device_list found no function");
        assertTrue(has("STEP open_device ok"), "ibv_open_device (mlx5_vfio's bring-up) failed");
        // mlx5_vfio's bring-up, in its order (mlx5_vfio_setup_function, create_async_eqs)
        List<String> bringUp = List.of("ENABLE_HCA op_mod=0x0", "QUERY_ISSI op_mod=0x0", "SET_ISSI op_mod=0x0", "QUERY_PAGES op_mod=0x1",
                "MANAGE_PAGES op_mod=0x1", "ACCESS_REG op_mod=0x0", "QUERY_HCA_CAP op_mod=0x1", "QUERY_HCA_CAP op_mod=0x0",
                "SET_HCA_CAP op_mod=0x0", "QUERY_HCA_CAP op_mod=0x9", "QUERY_HCA_CAP op_mod=0x8", "QUERY_PAGES op_mod=0x2",
                "MANAGE_PAGES op_mod=0x1", "INIT_HCA op_mod=0x0", "MODIFY_NIC_VPORT_CONTEXT op_mod=0x0", "ALLOC_UAR op_mod=0x0",
                "CREATE_EQ op_mod=0x0");
        List<String> sent = lines.stream().filter(l -> l.startsWith("CMD ")).map(l -> l.substring(4, l.indexOf(" status="))).toList();
        assertTrue(sent.size() >= bringUp.size(), "commands: " + sent);
        assertEquals(bringUp, sent.subList(0, bringUp.size()), "mlx5_vfio's bring-up sequence");
        for (int i = 0; i < bringUp.size(); i++) {
            String line = lines.stream().filter(l -> l.startsWith("CMD ")).toList().get(i);
            assertTrue(line.contains("status=0x0 "), "failed: " + line);
        }
        assertTrue(lines.indexOf("STEP open_device ok") > lines.indexOf(lines.stream().filter(l -> l.startsWith("CMD CREATE_EQ")).findFirst().orElseThrow()));
        // the EQ's command completions reached mlx5_vfio through the stand-in's MSI-X eventfd: DEVX commands after it completed
        assertTrue(has("VFIO ioctl device VFIO_DEVICE_SET_IRQS MSI-X start 0 count 32"), "MSI-X eventfds");
    }

    @Test
    void devxGeneralCommandsAnswer() {
        assertTrue(has("STEP devx_general_cmd QUERY_HCA_CAP ok op_mod=GENERAL_DEVICE_CUR status=0 port_type=1"), "QUERY_HCA_CAP");
        assertTrue(has("STEP devx_general_cmd QUERY_HCA_CAP ok op_mod=GENERAL_DEVICE_MAX"), "QUERY_HCA_CAP max");
        assertTrue(has("STEP devx_general_cmd QUERY_VPORT_STATE ok"), "QUERY_VPORT_STATE");
        assertTrue(has("STEP devx_general_cmd QUERY_ISSI ok current_issi=1"), "QUERY_ISSI after mlx5_vfio's SET_ISSI 1");
        assertTrue(has("STEP devx_general_cmd QUERY_NIC_VPORT_CONTEXT ok"), "QUERY_NIC_VPORT_CONTEXT");
    }

    @Test
    void devxObjectsAreCreatedAndDestroyed() {
        assertTrue(has("STEP devx_obj_create ALLOC_PD ok"), "ALLOC_PD through mlx5dv_devx_obj_create");
        assertTrue(has("STEP devx_obj_destroy PD ok"), "DEALLOC_PD through mlx5dv_devx_obj_destroy");
        assertTrue(has("STEP devx_alloc_uar ok"), "mlx5dv_devx_alloc_uar");
        assertTrue(has("CMD ALLOC_PD op_mod=0x0 status=0x0") && has("CMD DEALLOC_PD op_mod=0x0 status=0x0"), "PD commands");
        assertTrue(has("STEP devx_query_eqn ok"), "mlx5dv_devx_query_eqn");
    }

    /**
     * A DEVX application's queues on umems (issue 35's DEVX sequence, here through rdma-core itself):
     * every call succeeds, the commands mlx5_vfio sent for them are these, in this order, each OK,
     * the queries read back the states and umem ids, and the objects are all gone afterwards.
     */
    @Test
    void devxQueuesOnUmemsAreCreatedModifiedQueriedAndDestroyed() {
        List<String> steps = List.of("devx_umem_reg cq", "devx_umem_reg doorbell_records", "devx_umem_reg sq", "devx_umem_reg rq", "devx_umem_reg qp",
                "devx_obj_create CREATE_CQ", "devx_obj_query QUERY_CQ", "devx_obj_create ALLOC_TRANSPORT_DOMAIN", "devx_obj_create CREATE_TIS",
                "devx_obj_create CREATE_SQ", "devx_obj_modify MODIFY_SQ RST->RDY", "devx_obj_query QUERY_SQ", "devx_obj_create CREATE_RQ",
                "devx_obj_modify MODIFY_RQ RST->RDY", "devx_obj_query QUERY_RQ", "devx_obj_create CREATE_QP", "devx_obj_modify RST2INIT_QP",
                "devx_obj_modify INIT2RTR_QP", "devx_obj_modify RTR2RTS_QP", "devx_obj_query QUERY_QP", "devx_obj_destroy CREATE_QP",
                "devx_obj_destroy CREATE_RQ", "devx_obj_destroy CREATE_SQ", "devx_obj_destroy CREATE_TIS", "devx_obj_destroy ALLOC_TRANSPORT_DOMAIN",
                "devx_obj_destroy CREATE_CQ", "devx_umem_dereg", "devx_umem_dereg", "devx_umem_dereg", "devx_umem_dereg", "devx_umem_dereg");
        List<String> seen = lines.stream().filter(l -> l.startsWith("STEP devx_umem") || (l.startsWith("STEP devx_obj") && !l.contains(" PD") && !l.contains("ALLOC_PD")))
                .map(l -> l.substring(5, l.indexOf(l.contains(" ok") ? " ok" : " FAILED"))).toList();
        assertEquals(steps, seen, "the DEVX calls");
        List<String> failed = lines.stream().filter(l -> (l.startsWith("STEP devx_umem") || l.startsWith("STEP devx_obj")) && l.contains(" FAILED")).toList();
        assertEquals(List.of(), failed, "DEVX calls that failed");
        assertTrue(has("STEP devx_obj_query QUERY_CQ ok log_cq_size=6 dbr_umem_id=2"), "the CQ context as created");
        assertTrue(has("STEP devx_obj_query QUERY_SQ ok state=1 wq_umem_id=3"), "the SQ in RDY on its umem");
        assertTrue(has("STEP devx_obj_query QUERY_RQ ok state=1 wq_umem_id=4"), "the RQ in RDY on its umem");
        assertTrue(has("STEP devx_obj_query QUERY_QP ok state=3 dbr_umem_id=2"), "the QP in RTS, its doorbell record in the doorbell umem");
        // what mlx5_vfio sent for them, between the EQ number and the PD's release
        List<String> cmds = lines.stream().filter(l -> l.startsWith("CMD ")).map(l -> l.substring(4, l.indexOf(" op_mod="))).toList();
        int from = cmds.indexOf("CREATE_UMEM"), to = cmds.lastIndexOf("DESTROY_UMEM");
        assertTrue(from > 0 && to > from, "commands: " + cmds);
        assertEquals(List.of("CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_UMEM", "CREATE_CQ", "QUERY_CQ",
                "ALLOC_TRANSPORT_DOMAIN", "CREATE_TIS", "CREATE_SQ", "MODIFY_SQ", "QUERY_SQ", "CREATE_RQ", "MODIFY_RQ", "QUERY_RQ", "CREATE_QP",
                "RST2INIT_QP", "INIT2RTR_QP", "RTR2RTS_QP", "QUERY_QP", "DESTROY_QP", "DESTROY_RQ", "DESTROY_SQ", "DESTROY_TIS",
                "DEALLOC_TRANSPORT_DOMAIN", "DESTROY_CQ", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM", "DESTROY_UMEM"),
                cmds.subList(from, to + 1), "the commands of the DEVX queues");
        // left: mlx5_vfio's own EQ and UAR, and the PD the test frees after
        assertTrue(has("LIVE_AFTER_DEVX {eq=1, pd=1, uar=1}"), "objects after the DEVX queues: "
                + lines.stream().filter(l -> l.startsWith("LIVE_AFTER_DEVX")).toList());
    }

    @Test
    void teardownLeavesNothingAndNoCommandFailed() {
        assertTrue(has("STEP close_device ok"), "ibv_close_device");
        assertTrue(has("CMD DESTROY_EQ op_mod=0x0 status=0x0") && has("CMD DEALLOC_UAR op_mod=0x0 status=0x0"), "EQ and UAR released");
        assertTrue(has("CMD TEARDOWN_HCA op_mod=0x0 status=0x0"), "mlx5_vfio tears the function down");
        assertTrue(has("LIVE {}"), "objects left on the device");
        assertTrue(has("ERROR null"), "the device model failed");
        assertTrue(has("FAULTS 0 mappings 0"), "DMA faults or mappings left");
        assertEquals(List.of(), lines.stream().filter(l -> l.startsWith("CMD ") && !l.contains("status=0x0 ")).toList(), "commands that failed");
        assertTrue(has("DONE"), "the mlx5_vfio JVM did not finish");
    }
}
