package io.prmkit.platform.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.HostTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each refusal of the DEVX bindings is one sentence: a library that is not there, a symbol an older
 * rdma-core lacks, a device rdma-core does not list, a string that is not a PCI address. On these
 * machines (no RDMA device) the real rdma-core answers the last ones.
 */
class DevxRefusalTest {

    static void oneSentence(String m) {
        assertFalse(m.contains("\n"), m);
        assertTrue(m.endsWith("."), "ends a sentence: " + m);
        assertEquals(m.indexOf(". "), -1, "one sentence: " + m);
    }

    @Test
    void aMissingLibraryIsOneSentenceSayingWhatToInstall() {
        DevxException e = assertThrows(DevxException.class, () -> RdmaCore.find("libprmkit-no-such-verbs.so.1", "ibv_get_device_list"));
        assertTrue(e.getMessage().startsWith("libprmkit-no-such-verbs.so.1 is not installed: install rdma-core's libraries (Debian and Ubuntu: apt-get install ibverbs-providers"),
                e.getMessage());
        oneSentence(e.getMessage());
    }

    @Test
    void aMissingSymbolNamesTheCallAndTheRdmaCoreItNeeds() {
        HostTools.libmlx5();
        DevxException e = assertThrows(DevxException.class, () -> RdmaCore.find(RdmaCore.MLX5, "mlx5dv_devx_no_such_call"));
        assertEquals("libmlx5.so.1 has no mlx5dv_devx_no_such_call: the installed rdma-core is too old for it "
                + "(DEVX needs rdma-core 24 or newer, the mlx5_vfio provider 35 or newer).", e.getMessage());
        // every call the back end binds is in the installed rdma-core 44
        for (String call : List.of("ibv_get_device_list", "ibv_free_device_list", "ibv_open_device", "ibv_close_device", "mlx5dv_is_supported",
                "mlx5dv_open_device", "mlx5dv_get_vfio_device_list", "mlx5dv_devx_general_cmd", "mlx5dv_devx_obj_create", "mlx5dv_devx_obj_modify",
                "mlx5dv_devx_obj_query", "mlx5dv_devx_obj_destroy", "mlx5dv_devx_umem_reg", "mlx5dv_devx_umem_dereg", "mlx5dv_devx_alloc_uar",
                "mlx5dv_devx_free_uar", "mlx5dv_devx_query_eqn", "mlx5dv_vfio_process_events", "mlx5dv_vfio_get_events_fd",
                "mlx5dv_create_flow_matcher", "mlx5dv_destroy_flow_matcher", "mlx5dv_create_flow"))
            RdmaCore.fn(call);
    }

    @Test
    void aDeviceRdmaCoreDoesNotListIsOneSentence() {
        HostTools.libmlx5();
        List<Devx.Device> devices = Devx.devices();
        DevxException e = assertThrows(DevxException.class, () -> Devx.open("mlx5_prmkit_none"));
        assertTrue(e.getMessage().startsWith("there is no RDMA device mlx5_prmkit_none: rdma-core lists "), e.getMessage());
        if (devices.isEmpty())
            assertEquals("there is no RDMA device mlx5_prmkit_none: rdma-core lists none (load the kernel's mlx5_ib with modprobe mlx5_ib, "
                    + "check with ibv_devices, or give vfio:PCI for a function bound to vfio-pci).", e.getMessage());
        oneSentence(e.getMessage());
    }

    @Test
    void mlx5VfioRefusesWhatIsNotAPciAddressOrNotThere() {
        HostTools.libmlx5();
        DevxException bad = assertThrows(DevxException.class, () -> Devx.openVfio("mlx5_0"));
        assertEquals("mlx5_0 is not a PCI address with its domain, such as 0000:03:00.0.", bad.getMessage());
        DevxException none = assertThrows(DevxException.class, () -> Devx.openVfio("0000:7e:00.7"));
        assertTrue(none.getMessage().startsWith("rdma-core's mlx5_vfio provider cannot take 0000:7e:00.7 (mlx5dv_get_vfio_device_list: errno "), none.getMessage());
        oneSentence(none.getMessage());
    }

    @Test
    void theRdmaDeviceSysfsLinkGivesThePciFunction(@TempDir Path sys) throws Exception {
        Path fn = Files.createDirectories(sys.resolve("devices/pci0000:00/0000:03:00.1"));
        Path ib = Files.createDirectories(sys.resolve("class/infiniband/mlx5_1"));
        Files.createSymbolicLink(ib.resolve("device"), fn);
        assertEquals(java.util.Optional.of("0000:03:00.1"), Devx.pciOf(ib.toString()));
        assertEquals(java.util.Optional.empty(), Devx.pciOf(sys.resolve("class/infiniband/none").toString()));
        assertEquals(java.util.Optional.empty(), Devx.pciOf(""));
    }
}
