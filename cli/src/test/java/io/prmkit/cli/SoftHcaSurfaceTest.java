package io.prmkit.cli;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Everything in the tree that uses the soft HCA from outside it uses only its API packages:
 * {@code io.prmkit.softhca} ({@code SoftHca}, its options, faults, caps), {@code .wire} (ports,
 * cables, taps) and {@code .vfio} (the VFIO stand-in); {@code cmd}, {@code datapath} and
 * {@code device} are the model's internals. Covered: the main classes of cli, demo, benchmarks,
 * driver and platform-vfio (this module's classpath), and the test classes of cli, demo, driver and
 * platform-vfio (their build directories, built before cli in the reactor). Allowed by name: the
 * benchmark {@code DeviceLoopbackBench}, which times the datapath alone (its Javadoc says why), its
 * JMH-generated harness and {@code DeviceLoopbackTwoThread}, which runs its setup on two threads. The driver's own {@code LayeringTest} checks its tests the same way.
 */
class SoftHcaSurfaceTest {
    static final String[] API = {"io.prmkit.softhca", "io.prmkit.softhca.wire", "io.prmkit.softhca.vfio"};
    static final String[] ALLOWED = {"io.prmkit.bench.DeviceLoopbackBench", "io.prmkit.bench.jmh_generated.DeviceLoopbackBench_",
            "io.prmkit.bench.DeviceLoopbackTwoThread", // the same setup, the datapath polled on a thread of its own
            // LayeringTest's deliberate violation, which shows its copy of this rule can fail
            "io.prmkit.driver.arch.surfacefixture."};

    static ArchRule rule(String... allowedClassPrefixes) {
        DescribedPredicate<JavaClass> allowed = DescribedPredicate.describe("allowed by name",
                c -> List.of(allowedClassPrefixes).stream().anyMatch(p -> c.getName().startsWith(p)));
        return noClasses().that().resideOutsideOfPackage("io.prmkit.softhca..").and(not(allowed))
                .should().dependOnClassesThat(resideInAPackage("io.prmkit.softhca..").and(not(resideInAnyPackage(API))))
                .as("classes outside soft-hca use it only through " + String.join(", ", API));
    }

    /** The main classes of cli, demo, benchmarks, driver and platform-vfio, from this module's classpath. */
    private static JavaClasses mainClasses() {
        return new ClassFileImporter()
                .withImportOption(l -> !l.contains("-tests.jar") && !l.contains("/test-classes/"))
                .importPackages("io.prmkit.cli", "io.prmkit.demo", "io.prmkit.bench", "io.prmkit.driver", "io.prmkit.platform.vfio");
    }

    /** The test classes of cli, demo, driver and platform-vfio, from their build directories. */
    private static JavaClasses testClasses() {
        List<Path> tests = new ArrayList<>();
        for (String m : new String[] {"cli", "demo", "driver", "platform-vfio"}) {
            Path p = Path.of("..", m, "target", "test-classes");
            assertTrue(Files.isDirectory(p), p.toAbsolutePath().normalize() + " missing: build " + m + "'s tests first (the reactor does)");
            tests.add(p);
        }
        return new ClassFileImporter().importPaths(tests);
    }

    @Test
    void mainCodeOutsideSoftHcaUsesOnlyItsApi() {
        JavaClasses main = mainClasses();
        for (String c : new String[] {"io.prmkit.cli.Demo", "io.prmkit.demo.LoopbackRig", "io.prmkit.bench.DeviceLoopbackBench",
                "io.prmkit.driver.eth.EthPort", "io.prmkit.platform.vfio.Vfio"}) {
            assertTrue(main.contain(c), c + " imported");
        }
        rule(ALLOWED).check(main);
    }

    @Test
    void testsOutsideSoftHcaUseOnlyItsApi() {
        JavaClasses tests = testClasses();
        for (String c : new String[] {"io.prmkit.cli.DecodeSoftHcaRingTest", "io.prmkit.demo.SoftLoopback",
                "io.prmkit.driver.dp.LifecycleTest", "io.prmkit.driver.eth.EthStatsTest", "io.prmkit.platform.vfio.VfioBackEndTest"}) {
            assertTrue(tests.contain(c), c + " imported");
        }
        rule(ALLOWED).check(tests);
    }

    @Test
    void theBenchmarkIsTheOneExceptionAndTheRuleSeesIt() {
        JavaClasses bench = new ClassFileImporter().importPackages("io.prmkit.bench");
        AssertionError e = assertThrows(AssertionError.class, () -> rule().check(bench));
        assertTrue(e.getMessage().contains("io.prmkit.softhca.device.DeviceObjects"), e.getMessage());
        assertTrue(e.getMessage().contains("DeviceLoopbackBench"), e.getMessage());
    }
}
