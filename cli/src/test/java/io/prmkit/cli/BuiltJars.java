package io.prmkit.cli;

import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The jars the reactor built for the other modules ({@code MODULE/target}), which the tests of what
 * users get from them (sources jars, module names) open. {@code ./mvnw verify} from the root packages
 * them before this module's tests; a build of this module alone may not have them, and then the test
 * is skipped with one line (failed in CI).
 */
final class BuiltJars {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private BuiltJars() {}

    /** {@code MODULE/target/ARTIFACT-VERSION.jar}, or with {@code suffix} (e.g. "-sources") before ".jar". */
    static Path find(String module, String artifact, String suffix) throws IOException {
        Path jar;
        try (Stream<Path> files = Files.list(ROOT.resolve(module).resolve("target"))) {
            String name = artifact + "-[0-9][^/]*?" + java.util.regex.Pattern.quote(suffix) + "\\.jar";
            jar = files.filter(p -> p.getFileName().toString().matches(name))
                    .filter(p -> !suffix.isEmpty() || !p.getFileName().toString().matches(".*-(sources|tests)\\.jar"))
                    .findFirst().orElse(null);
        } catch (NoSuchFileException e) {
            jar = null;
        }
        if (jar == null) {
            String why = module + "/target has no " + artifact + (suffix.isEmpty() ? "" : " " + suffix.substring(1)) + " jar (build from the root: ./mvnw verify)";
            if (HostTools.inCi()) throw new AssertionError(why);
            System.out.println("[prmkit] SKIPPED: " + why);
            Assumptions.abort(why);
        }
        return jar;
    }
}
