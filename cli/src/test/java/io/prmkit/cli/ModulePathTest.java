package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Child;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library jars on the module path: each names its module in its manifest (Automatic-Module-Name,
 * not a name derived from the file's), and an application module that requires them compiles and
 * brings a driver up on the soft HCA. A module holding sources that {@code prmkit generate} wrote
 * needs the prmkit-layout jar alone and {@code requires io.prmkit.layout} (docs/generated-api.md).
 */
class ModulePathTest {
    /** Module (folder) -> artifact and the module name its jar must declare. */
    private static final Map<String, String[]> JARS = Map.of(
            "generated-runtime", new String[] {"prmkit-generated-runtime", "io.prmkit.runtime"},
            "prm-layout", new String[] {"prmkit-layout", "io.prmkit.layout"},
            "driver", new String[] {"prmkit-driver", "io.prmkit.driver"},
            "soft-hca", new String[] {"prmkit-soft-hca", "io.prmkit.softhca"},
            "platform", new String[] {"prmkit-platform", "io.prmkit.platform"});

    @Test
    void anApplicationModuleRequiresTheJarsByTheirNamesAndRuns(@TempDir Path dir) throws Exception {
        List<Path> jars = new ArrayList<>();
        for (var e : JARS.entrySet()) {
            Path jar = BuiltJars.find(e.getKey(), e.getValue()[0], "");
            try (JarFile j = new JarFile(jar.toFile())) {
                assertEquals(e.getValue()[1], j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), jar.getFileName().toString());
            }
            jars.add(jar);
        }
        Path src = dir.resolve("src/app");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), """
                module app {
                    requires io.prmkit.runtime;
                    requires io.prmkit.driver;
                    requires io.prmkit.softhca;
                }
                """);
        Files.writeString(src.resolve("app/Main.java"), """
                package app;

                import io.prmkit.driver.core.DeviceOptions;
                import io.prmkit.driver.core.Mlx5Device;
                import io.prmkit.driver.eth.EthPort;
                import io.prmkit.driver.eth.EthPortConfig;
                import io.prmkit.mlx5.CmdHcaCap;
                import io.prmkit.softhca.SoftHca;

                public class Main {
                    public static void main(String[] args) throws Exception {
                        try (SoftHca hca = SoftHca.create();
                             Mlx5Device dev = Mlx5Device.open(hca.function(), DeviceOptions.defaults());
                             EthPort port = EthPort.open(dev, EthPortConfig.defaults())) {
                            System.out.println("up, " + CmdHcaCap.SIZE + "-byte cmd_hca_cap, rx "
                                    + port.queryStats().rxVportUnicastPackets() + " frames");
                        }
                    }
                }
                """);
        String modulePath = jars.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        Path out = dir.resolve("out");
        StringWriter log = new StringWriter();
        boolean compiled = ToolProvider.getSystemJavaCompiler().getTask(log, null, null,
                List.of("-d", out.toString(), "--module-path", modulePath, "--module-source-path", dir.resolve("src").toString(), "--module", "app"),
                null, null).call();
        assertTrue(compiled, log.toString());
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(javaExe, "--module-path", out + java.io.File.pathSeparator + modulePath, "-m", "app/app.Main")
                .redirectErrorStream(true), Duration.ofMinutes(2));
        String output = p.stdout();
        assertEquals(0, p.exit(), output);
        assertEquals("up, " + io.prmkit.mlx5.CmdHcaCap.SIZE + "-byte cmd_hca_cap, rx 0 frames", output.strip());
    }

    private static final String SPEC = """
            package acme;
            struct doorbell size 8 {
                0x00 [31:16] counter "Producer counter";
                0x00 [15:0]  reserved;
                0x04 [31:0]  qpn     range 0..0xffffff "Queue number";
            }
            """;

    private static final String MAIN = """
            package app;

            import app.gen.acme.Doorbell;
            import io.prmkit.layout.PrmLayout;
            import java.lang.foreign.Arena;
            import java.lang.foreign.MemorySegment;

            public class Main {
                public static void main(String[] args) {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment s = arena.allocate(Doorbell.SIZE);
                        Doorbell.counter$set(s, 7);
                        Doorbell.qpn$set(s, 0x2a);
                        PrmLayout.Struct layout = Doorbell.layout();
                        System.out.println(layout.name() + " " + Doorbell.counter(s) + " " + layout.validate(s, 0L, c -> true));
                    }
                }
            }
            """;

    /**
     * What a user of {@code prmkit generate} (or the Maven plugin) adds for a modular build: the prmkit-layout
     * jar on the module path and {@code requires io.prmkit.layout}. Without the {@code requires}, javac
     * refuses the generated sources and names the module.
     */
    @Test
    void generatedSourcesInAnApplicationModuleNeedOnlyThePrmLayoutJar(@TempDir Path dir) throws Exception {
        Path layoutJar = BuiltJars.find("prm-layout", "prmkit-layout", "");
        Path spec = Files.writeString(dir.resolve("doorbell.prm"), SPEC);
        Path src = dir.resolve("src/app");
        PrmkitCliTest.Run gen = PrmkitCliTest.run("generate", spec.toString(), "-o", src.toString(), "--package", "app.gen");
        assertEquals(0, gen.exitCode(), gen.err());
        Files.delete(src.resolve(".prmkit-generated"));
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("app/Main.java"), MAIN);

        Files.writeString(src.resolve("module-info.java"), "module app {\n    exports app.gen.acme;\n}\n");
        StringWriter refused = new StringWriter();
        assertEquals(false, compile(dir, layoutJar, refused), "compiles without requires io.prmkit.layout");
        assertTrue(refused.toString().contains("io.prmkit.layout"), refused.toString());

        Files.writeString(src.resolve("module-info.java"), "module app {\n    requires io.prmkit.layout;\n    exports app.gen.acme;\n}\n");
        StringWriter log = new StringWriter();
        assertTrue(compile(dir, layoutJar, log), log.toString());
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Child.Result p = Child.run(new ProcessBuilder(javaExe, "--module-path", dir.resolve("out") + java.io.File.pathSeparator + layoutJar,
                "-m", "app/app.Main").redirectErrorStream(true), Duration.ofMinutes(1));
        assertEquals(0, p.exit(), p.stdout());
        assertEquals("acme.doorbell 7 []", p.stdout().strip());
    }

    private static boolean compile(Path dir, Path layoutJar, StringWriter log) {
        return ToolProvider.getSystemJavaCompiler().getTask(log, null, null, List.of("-d", dir.resolve("out").toString(),
                "--module-path", layoutJar.toString(), "--module-source-path", dir.resolve("src").toString(), "--module", "app"), null, null).call();
    }
}
