package io.prmkit.driver.devx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.driver.core.DeviceOptions;
import io.prmkit.softhca.SoftHca;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * The device's own events at run time, on both transports: a page request of the firmware's is
 * answered with MANAGE_PAGES by whoever keeps the function: our driver's page worker on the command
 * queue, rdma-core's mlx5_vfio over DEVX when DevxDevice's event thread lets it process its events
 * ({@code mlx5dv_vfio_process_events}). (A kernel context's events are the kernel's; the datapath
 * polls its CQs either way.)
 */
@BothTransports
class DeviceEventsTest {
    @Parameter
    Transport transport;

    @Test
    void aPageRequestAtRunTimeIsAnsweredWithManagePages() {
        List<String> device = new CopyOnWriteArrayList<>();
        try (TestDevice d = TestDevice.open(transport, new SoftHca.Options().trace(device::add),
                DeviceOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)))) {
            device.clear();
            d.hca().faults().requestPages(8);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!answered(device) && System.nanoTime() < deadline) LockSupport.parkNanos(5_000_000);
            assertTrue(answered(device), "no MANAGE_PAGES giving the 8 pages after the page request: "
                    + device.stream().filter(l -> l.contains("dump command")).map(l -> l.substring(0, l.indexOf('\n'))).limit(20).toList());
            if (d.function() instanceof DevxDevice devx) assertEquals(null, devx.eventError(), "mlx5_vfio's event processing failed");
        }
    }

    /** MANAGE_PAGES giving (ALLOCATION_SUCCESS) 8 pages, and its output with status OK (all zero). */
    private static boolean answered(List<String> device) {
        int give = -1;
        for (int i = 0; i < device.size(); i++) {
            String l = device.get(i);
            if (l.contains("dump command MANAGE_PAGES(0x108) INPUT") && l.contains("op_mod = 0x1 ALLOCATION_SUCCESS") && l.contains("input_num_entries = 0x8\n"))
                give = i;
            else if (give >= 0 && l.contains("dump command MANAGE_PAGES(0x108) OUTPUT")) return l.contains("(all zero)") || l.contains("status = 0x0");
        }
        return false;
    }
}
