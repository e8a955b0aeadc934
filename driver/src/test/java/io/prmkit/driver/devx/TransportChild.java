package io.prmkit.driver.devx;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.engine.discovery.DiscoverySelectors;

/**
 * The child JVM of {@link OverBothTransports}: started with the VFIO stand-in preloaded and {@code
 * -Dprmkit.transport.child=true}, it runs one {@link BothTransports} test class (its {@code DEVX}
 * run only) through the JUnit launcher and writes one line per test method to the results file:
 * {@code name(parameter types) TAB status TAB base64(message and stack)}.
 */
public final class TransportChild {
    private TransportChild() {}

    public static void main(String[] args) throws Exception {
        Class<?> cls = Class.forName(args[0]);
        Path results = Path.of(args[1]);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.getSource().orElse(null) instanceof MethodSource m) lines.add(key(m) + "\tDISABLED\t" + OverBothTransports.encode(reason));
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult r) {
                if (!id.isTest() || !(id.getSource().orElse(null) instanceof MethodSource m)) {
                    // a class-level failure (e.g. in a @BeforeAll) fails every method
                    if (r.getStatus() == TestExecutionResult.Status.FAILED && id.isContainer()) {
                        lines.add("\tFAILED\t" + OverBothTransports.encode(id.getDisplayName() + ": " + text(r)));
                    }
                    return;
                }
                System.out.println("[devx] " + m.getMethodName() + ": " + r.getStatus());
                lines.add(key(m) + "\t" + r.getStatus() + "\t" + OverBothTransports.encode(text(r)));
            }
        };
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(cls))
                .configurationParameter("junit.jupiter.execution.timeout.default", "2 m")
                .build(), listener);
        OverBothTransports.write(results, lines);
        System.out.flush();
        System.exit(0); // the stand-in's and device's threads must not keep the JVM
    }

    private static String key(MethodSource m) {
        return m.getMethodName() + "(" + m.getMethodParameterTypes() + ")";
    }

    private static String text(TestExecutionResult r) {
        Throwable t = r.getThrowable().orElse(null);
        if (t == null) return "";
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
