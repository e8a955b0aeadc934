package io.prmkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The driver's datapath allocates nothing per packet: 20 million packets through TxQueue.send and
 * as many through RxQueue.receive in a JVM without a garbage collector (Epsilon) and a 128 MB heap (room for the interpreted and C1-compiled warm-up, which does allocate).
 * The smallest Java object is 16 bytes: one per packet would be 640 MB, five times the heap.
 */
class DatapathNoAllocTest {
    @Test
    void twentyMillionPacketsEachWayInA128MbHeapWithoutGc() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx128m",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), NoAllocMain.class.getName(), "20000000"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals("sent 20000000 received 20000000", out.strip(), out);
    }
}
