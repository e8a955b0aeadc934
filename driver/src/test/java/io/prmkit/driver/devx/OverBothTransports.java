package io.prmkit.driver.devx;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import io.prmkit.softhca.vfio.StandInBuild;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * What {@link BothTransports} does.
 * <ul>
 *   <li>The class's arguments: both transports in the test's JVM, only {@code DEVX} in the child JVM.</li>
 *   <li>The {@code DEVX} run in the test's JVM runs no test body here: at its first test method the
 *       whole class runs over DEVX in one child JVM (rdma-core's mlx5_vfio needs the VFIO stand-in
 *       preloaded, i.e. in the process from its start: {@code LD_PRELOAD}), through the JUnit launcher
 *       ({@link TransportChild}); each method then reports the child's outcome for it: passed, failed
 *       with the child's assertion and stack, or aborted with its reason. Without gcc or libmlx5 the
 *       DEVX run is skipped with one line (failed under {@code CI=true}), as HostTools does.</li>
 *   <li>A method marked {@link CommandQueueOnly} is disabled on {@code DEVX}, with its reason.</li>
 * </ul>
 */
public final class OverBothTransports implements ArgumentsProvider, InvocationInterceptor, ExecutionCondition {
    /** Set in the child JVM that runs a class over DEVX. */
    static final String CHILD = "prmkit.transport.child";
    static final Duration CHILD_TIMEOUT = Duration.ofSeconds(270);

    /** One child run per test class. */
    private static final Map<Class<?>, Map<String, Outcome>> RUNS = new ConcurrentHashMap<>();

    /** One test method's outcome in the child: SUCCESSFUL, FAILED, ABORTED or DISABLED, with what it said. */
    record Outcome(String status, String detail) {}

    static boolean inChild() {
        return Boolean.getBoolean(CHILD);
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters, ExtensionContext context) {
        return (inChild() ? Stream.of(Transport.DEVX) : Stream.of(Transport.values())).map(Arguments::of);
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<CommandQueueOnly> only = context.getTestMethod().map(m -> m.getAnnotation(CommandQueueOnly.class));
        if (only.isEmpty() || context.getTestInstance().isEmpty()) return ConditionEvaluationResult.enabled("");
        return transportOf(context.getTestInstance().get()) == Transport.DEVX
                ? ConditionEvaluationResult.disabled("on the command queue only: " + only.get().value())
                : ConditionEvaluationResult.enabled("");
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context) throws Throwable {
        run(invocation, call, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context)
            throws Throwable {
        run(invocation, call, context);
    }

    private static void run(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call, ExtensionContext context) throws Throwable {
        Object instance = call.getTarget().orElseThrow();
        if (transportOf(instance) != Transport.DEVX || inChild()) {
            invocation.proceed();
            return;
        }
        invocation.skip();
        Class<?> cls = context.getRequiredTestClass();
        Map<String, Outcome> outcomes;
        synchronized (RUNS) {
            outcomes = RUNS.get(cls);
            if (outcomes == null) {
                outcomes = runChild(cls); // throws (skip or CI failure) when the host cannot run DEVX: not cached, HostTools prints once
                RUNS.put(cls, outcomes);
            }
        }
        String key = key(call.getExecutable());
        Outcome o = outcomes.get(key);
        if (o == null) o = outcomes.get("");
        if (o == null) throw new AssertionFailedError("the DEVX JVM reported nothing for " + key + " (log: " + log(cls) + ")");
        switch (o.status()) {
            case "SUCCESSFUL" -> { }
            case "ABORTED" -> throw new TestAbortedException("over DEVX: " + o.detail());
            default -> throw new AssertionFailedError("over DEVX (rdma-core's mlx5_vfio on the soft HCA, in a JVM of its own; log: " + log(cls)
                    + "):\n" + o.detail());
        }
    }

    private static Transport transportOf(Object instance) {
        for (Class<?> c = instance.getClass(); c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getType() != Transport.class) continue;
                try {
                    f.setAccessible(true);
                    return (Transport) f.get(instance);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException(instance.getClass().getName() + " has no Transport field for @BothTransports (@Parameter Transport transport;)");
    }

    /** A method as the launcher's MethodSource names it: name(parameter types). */
    static String key(Method m) {
        MethodSource s = MethodSource.from(m);
        return s.getMethodName() + "(" + s.getMethodParameterTypes() + ")";
    }

    static Path log(Class<?> cls) {
        return Path.of("target", "devx-" + cls.getSimpleName() + ".log").toAbsolutePath();
    }

    /** Runs {@code cls} over DEVX in a child JVM with the stand-in preloaded; its outcome per method key. */
    private static Map<String, Outcome> runChild(Class<?> cls) throws IOException {
        HostTools.libmlx5();
        Path library = StandInBuild.library();
        Path results = Files.createTempFile("prmkit-devx-", ".results");
        String javaCmd = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(javaCmd, "--enable-native-access=ALL-UNNAMED", "-D" + CHILD + "=true",
                "-cp", System.getProperty("java.class.path"), TransportChild.class.getName(), cls.getName(), results.toString());
        pb.environment().put("LD_PRELOAD", library.toString());
        long start = System.nanoTime();
        Child.Result r = Child.run(pb, CHILD_TIMEOUT);
        long ms = (System.nanoTime() - start) / 1_000_000;
        Files.writeString(log(cls), r.output(), StandardCharsets.UTF_8);
        Map<String, Outcome> outcomes = read(results);
        Files.deleteIfExists(results);
        if (r.exit() != 0 || outcomes.isEmpty()) {
            String why = "the DEVX JVM for " + cls.getSimpleName() + " ended with exit " + r.exit() + " after " + ms + " ms and " + outcomes.size()
                    + " results (log: " + log(cls) + "):\n" + tail(r.output());
            return Map.of("", new Outcome("FAILED", why));
        }
        Map<String, Long> counts = new TreeMap<>();
        outcomes.values().forEach(o -> counts.merge(o.status().toLowerCase(Locale.ROOT), 1L, Long::sum));
        System.out.println("[prmkit] " + cls.getSimpleName() + " over DEVX (rdma-core's mlx5_vfio on the soft HCA, one JVM): " + counts + " in "
                + ms + " ms");
        return outcomes;
    }

    private static Map<String, Outcome> read(Path results) throws IOException {
        Map<String, Outcome> out = new LinkedHashMap<>();
        if (!Files.exists(results)) return out;
        for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", 3);
            if (f.length < 3) continue;
            Outcome o = new Outcome(f[1], new String(Base64.getDecoder().decode(f[2]), StandardCharsets.UTF_8));
            // a test template's invocations share a key: the worst outcome stands for the method
            out.merge(f[0], o, (a, b) -> rank(b) > rank(a) ? b : a);
        }
        return out;
    }

    private static int rank(Outcome o) {
        return switch (o.status()) {
            case "FAILED" -> 3;
            case "ABORTED" -> 2;
            case "DISABLED" -> 1;
            default -> 0;
        };
    }

    private static String tail(String s) {
        List<String> lines = new ArrayList<>(List.of(s.split("\n")));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    static String encode(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    static void write(Path results, List<String> lines) {
        try {
            Files.write(results, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
