package io.prmkit.bench;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Checking a spec should cost time linear in its size: compare the score per struct at 1k and 10k
 * structs. Each struct has eight dwords in PRM notation, a sequential part, an enum-bound field, a
 * rule and (in 7 of 8 structs) the previous struct nested, so every pass has work to do.
 *
 * <pre>
 * ./mvnw -q -pl benchmarks -am package dependency:build-classpath -DskipTests -Dmdep.outputFile=/tmp/bench-cp.txt
 * $JDK25/bin/java -cp "benchmarks/target/classes:$(cat /tmp/bench-cp.txt)" org.openjdk.jmh.Main CheckScalingBench
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CheckScalingBench {
    @Param({"1000", "10000"})
    public int structs;

    private List<SourceFile> spec;

    @Setup(Level.Trial)
    public void setUp() {
        spec = List.of(new SourceFile("bench.prm", spec(structs)));
        CompileResult r = PrmCompiler.compile(spec);
        if (r.hasErrors()) throw new IllegalStateException("benchmark spec has errors: " + r.errors().get(0));
    }

    /** A valid spec of {@code n} structs. */
    static String spec(int n) {
        StringBuilder sb = new StringBuilder(n * 600);
        sb.append("package bench;\n\nenum state width 4 { RST = 0; INIT = 1; RTR = 2; RTS = 3; }\nconst MAX_DS = 63;\n\n");
        for (int i = 0; i < n; i++) {
            sb.append("/// Structure ").append(i).append(".\n");
            sb.append("struct s").append(i).append(" ref \"PRM 1.").append(i).append("\" {\n");
            sb.append("    0x00 [31:24] opcode;\n    0x00 [23:8]  index \"counter\";\n    0x00 [7:4]   st enum state;\n    0x00 [3:0]   reserved;\n");
            sb.append("    0x04 [31:8]  qpn;\n    0x04 [7:6]   reserved;\n    0x04 [5:0]   ds range 1..63;\n");
            sb.append("    0x08         key : u64;\n    0x10         mac : u8[8];\n");
            sb.append("    flag : 1;\n    reserved : 15;\n    log_size : 5 log2;\n    reserved : 11;\n    value : u32;\n");
            // Nest the previous struct, in chains of at most 8: struct sizes stay bounded, so the total
            // size of the spec (and the work a linear compiler does) grows linearly with n.
            if (i % 8 != 0) sb.append("    inner : s").append(i - 1).append(";\n");
            sb.append("    rule ds_ok: ds != 0 && ds <= MAX_DS && st != state.RTS \"bad ds\";\n}\n\n");
        }
        return sb.toString();
    }

    @Benchmark
    public CompileResult check() {
        return PrmCompiler.compile(spec);
    }
}
