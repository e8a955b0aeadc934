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
 * as many through RxQueue.receive in a JVM without a garbage collector (Epsilon) and a 256 MB heap: room for
 * the interpreted and C1-compiled warm-up, which does allocate (measured 55 to 100 MB, more the longer C2 takes;
 * 128 MB left too little room once RxQueue read CQEs through a slice). The smallest Java object is 16
 * bytes: one per packet would be 640 MB each way, five times the heap for both.
 */
class DatapathNoAllocTest {
    @Test
    void twentyMillionPacketsEachWayInA256MbHeapWithoutGc() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx256m",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), NoAllocMain.class.getName(), "20000000"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals("sent 20000000 received 20000000", out.strip(), out);
    }
}
