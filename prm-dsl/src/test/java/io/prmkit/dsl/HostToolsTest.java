package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class HostToolsTest {
    @TempDir
    Path root;

    @Test
    void anEmptyRootHasNoneOfTheTools() {
        HostTools.Found f = HostTools.locate(root.toString(), null, null, "/usr/bin:/bin");
        assertEquals(EnumSet.allOf(HostTools.Tool.class), f.missing());
    }

    @Test
    void missingToolsSkipOutsideCiAndFailInCi() {
        Set<HostTools.Tool> missing = EnumSet.of(HostTools.Tool.KERNEL_HEADERS, HostTools.Tool.GCC);
        RuntimeException local = HostTools.decide(missing, false);
        assertInstanceOf(TestAbortedException.class, local);
        assertTrue(local.getMessage().contains("linux-headers-<version>-common"), local.getMessage());
        assertTrue(local.getMessage().contains("apt-get install gcc"), local.getMessage());

        RuntimeException ci = HostTools.decide(missing, true, EnumSet.of(HostTools.Tool.GCC, HostTools.Tool.TSHARK));
        assertFalse(ci instanceof TestAbortedException, "in CI a missing tool fails the test");
        assertTrue(ci.getMessage().contains("CI is set"), ci.getMessage());
        assertTrue(ci.getMessage().endsWith("This machine lacks: gcc (apt-get install gcc); tshark (apt-get install tshark)"), ci.getMessage());
    }

    @Test
    void ciIsAnyValueButEmptyFalseOrZero() {
        for (String on : new String[] {"true", "TRUE", "1", "yes", "gitlab"}) assertTrue(HostTools.ciValue(on), on);
        for (String off : new String[] {null, "", " ", "false", "False", "0"}) assertFalse(HostTools.ciValue(off), String.valueOf(off));
    }

    @Test
    void aMissingPartOfTheSystemSkipsOutsideCiAndFailsInCi() {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8);
        assertThrows(TestAbortedException.class, () -> HostTools.requireSystem(false, "/dev/nothing", "a test", false, out));
        assertEquals("[prmkit] SKIPPED: a test that needs /dev/nothing (a test)\n", printed.toString(java.nio.charset.StandardCharsets.UTF_8));
        IllegalStateException ci = assertThrows(IllegalStateException.class, () -> HostTools.requireSystem(false, "/dev/nothing", "a test", true, out));
        assertTrue(ci.getMessage().startsWith("missing /dev/nothing (a test) -- CI is set"), ci.getMessage());
        HostTools.requireSystem(true, "/dev/null", "present: nothing happens", true, out);
    }

    @Test
    void theSkipLineSaysWhatToInstall() {
        assertEquals("[prmkit] SKIPPED: tests that need gcc (to run them: apt-get install gcc)", HostTools.skipLine(HostTools.Tool.GCC));
    }

    @Test
    void findsTheNewestKernelHeadersMlx5dvAndGccBelowARoot() throws IOException {
        Path old = header("usr/src/linux-headers-6.1.0-9-common/include/linux/mlx5/mlx5_ifc.h");
        Path newest = header("usr/src/linux-headers-6.1.0-50-common/include/linux/mlx5/mlx5_ifc.h");
        header("usr/src/linux-headers-6.1.0-60-amd64/include/linux/mlx5/mlx5_ifc.h"); // not a -common package
        Path dv = header("usr/include/infiniband/mlx5dv.h");
        Path gcc = header("usr/bin/gcc");
        assertTrue(gcc.toFile().setExecutable(true));
        Path tshark = header("usr/bin/tshark");
        assertTrue(tshark.toFile().setExecutable(true));
        Path chromium = header("bin/chromium");
        assertTrue(chromium.toFile().setExecutable(true));
        Path mlx5 = header("usr/lib/x86_64-linux-gnu/libmlx5.so.1");

        HostTools.Found f = HostTools.locate(root.toString(), "", "", "/nowhere");
        assertEquals(Optional.of(newest.getParent()), f.kernelMlx5Dir());
        assertEquals(Optional.of(dv), f.mlx5dvHeader());
        assertEquals(Optional.of(gcc), f.gcc());
        assertEquals(Optional.of(tshark), f.tshark());
        assertEquals(Optional.of(chromium), f.chromium());
        assertEquals(Optional.of(mlx5), f.libmlx5());
        assertEquals("linux-headers-6.1.0-50-common", HostTools.kernelPackage(f.kernelMlx5Dir().get()));
        assertTrue(f.missing().isEmpty());
        assertFalse(old.getParent().equals(f.kernelMlx5Dir().get()));
    }

    @Test
    void anExplicitHeaderFolderWinsAndMustHoldMlx5Ifc() throws IOException {
        header("usr/src/linux-headers-6.1.0-50-common/include/linux/mlx5/mlx5_ifc.h");
        Path mine = header("mine/mlx5_ifc.h").getParent();
        assertEquals(Optional.of(mine), HostTools.locate(root.toString(), mine.toString(), null, "").kernelMlx5Dir());
        assertEquals(Optional.empty(), HostTools.locate(root.toString(), root.resolve("empty").toString(), null, "").kernelMlx5Dir());
    }

    @Test
    void theRdmaCoreVersionComesFromDpkg() throws IOException {
        Path status = header("var/lib/dpkg/status");
        Files.writeString(status, "Package: gcc\nVersion: 4:12.2.0-3\n\nPackage: libibverbs-dev\nStatus: install ok installed\nVersion: 44.0-2\n");
        assertEquals(Optional.of("44.0-2"), HostTools.debianVersion(status, "libibverbs-dev"));
        assertEquals(Optional.empty(), HostTools.debianVersion(status, "linux-headers-6.1.0-57-common"));
        assertEquals(Optional.empty(), HostTools.debianVersion(root.resolve("none"), "gcc"));
    }

    private Path header(String rel) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "/* test */\n");
        return p;
    }
}
