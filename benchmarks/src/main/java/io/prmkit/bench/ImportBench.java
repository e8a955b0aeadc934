package io.prmkit.bench;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.importer.IfcImporter;
import io.prmkit.dsl.importer.ImportOptions;
import io.prmkit.dsl.importer.ImportResult;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.generator.AccessorGenerator;
import io.prmkit.generator.GeneratedFile;
import io.prmkit.generator.GeneratorOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The kernel's whole mlx5_ifc.h (+ mlx5_ifc_fpga.h), warm: import to DSL text, then also compile
 * it (check), then also generate the Java accessors. The header text is read once in setup.
 * Header folder: -Dprmkit.ifc.dir, else the newest /usr/src/linux-headers-*-common.
 *
 * <p>Run: {@code ./mvnw -q -pl benchmarks -am package -DskipTests} then
 * {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/cp.txt)" org.openjdk.jmh.Main ImportBench}
 * (cp.txt from {@code dependency:build-classpath -Dmdep.outputFile=target/cp.txt}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 4)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class ImportBench {

    private List<SourceFile> headers;

    @Setup
    public void readHeaders() throws IOException {
        Path dir = mlx5Dir();
        headers = List.of(
                new SourceFile("mlx5_ifc_fpga.h", Files.readString(dir.resolve("mlx5_ifc_fpga.h"))),
                new SourceFile("mlx5_ifc.h", Files.readString(dir.resolve("mlx5_ifc.h"))));
        if (importHeader().hasErrors()) throw new IllegalStateException("the header does not import");
    }

    static Path mlx5Dir() throws IOException {
        String given = System.getProperty("prmkit.ifc.dir");
        if (given != null) return Path.of(given);
        try (Stream<Path> dirs = Files.list(Path.of("/usr/src"))) {
            return dirs.filter(d -> d.getFileName().toString().matches("linux-headers-[0-9.]+-[0-9]+-common"))
                    .map(d -> d.resolve("include/linux/mlx5"))
                    .filter(d -> Files.isRegularFile(d.resolve("mlx5_ifc.h")))
                    .max(Comparator.comparing(Path::toString))
                    .orElseThrow(() -> new IllegalStateException("install linux-headers-*-common or set -Dprmkit.ifc.dir"));
        }
    }

    @Benchmark
    public ImportResult importHeader() {
        return IfcImporter.importSources(headers, ImportOptions.DEFAULTS);
    }

    @Benchmark
    public LayoutModel importAndCheck() {
        CompileResult c = PrmCompiler.compile(importHeader().dslFiles());
        return c.model().orElseThrow();
    }

    @Benchmark
    public List<GeneratedFile> importCheckAndGenerate() {
        return new AccessorGenerator(new GeneratorOptions("")).generate(importAndCheck());
    }
}
