package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bench's machine line, from /proc/cpuinfo texts of the kinds these runs meet. */
class BenchMachineTest {
    private static final String ZEN5 = """
            processor\t: 0
            vendor_id\t: AuthenticAMD
            cpu family\t: 26
            model\t\t: 2
            model name\t: AMD EPYC
            flags\t\t: fpu vme de pse tsc

            processor\t: 1
            vendor_id\t: AuthenticAMD
            cpu family\t: 25
            model\t\t: 17
            model name\t: Other
            """;

    @Test
    void namesTheFirstProcessorWithItsFamilyAndModel() {
        assertEquals("machine: AMD EPYC (family 26 model 2), 2 CPUs, Linux 6.1.0, JDK 25.0.3+9-LTS, gcc (Debian 12.2.0-14) 12.2.0",
                BenchMachine.describe(ZEN5, "amd64", 2, "Linux", "6.1.0", "25.0.3+9-LTS", "gcc (Debian 12.2.0-14) 12.2.0\n"));
    }

    @Test
    void withoutX86NumbersOrACpuinfoTheNameOrTheArchitectureIsLeft() {
        String arm = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
        assertEquals("machine: aarch64 CPU, 1 CPU, Linux 6.1.0, JDK 22", BenchMachine.describe(arm, "aarch64", 1, "Linux", "6.1.0", "22", null));
        assertEquals("machine: amd64 CPU, 4 CPUs, Mac OS X 14.0, JDK 25", BenchMachine.describe(null, "amd64", 4, "Mac OS X", "14.0", "25", " "));
        String odd = "model name\t: Some CPU\ncpu family\t: x\nmodel\t: 3\n";
        assertEquals("machine: Some CPU, 2 CPUs, Linux 6, JDK 25", BenchMachine.describe(odd, "amd64", 2, "Linux", "6", "25", ""));
    }

    @Test
    void thisMachinesLineNamesItsJdk() {
        String line = BenchMachine.current("a-compiler-that-is-not-installed");
        assertTrue(line.startsWith("machine: "), line);
        assertTrue(line.endsWith(", JDK " + Runtime.version()), line); // no compiler: nothing after the JDK
    }
}
