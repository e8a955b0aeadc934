package io.prmkit.softhca.vfio;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The VFIO stand-in library for tests: {@link VfioStandIn#source()} compiled with gcc under
 * {@code target/vfio-standin}, once per JVM (gcc missing: the test is skipped, or failed in CI).
 */
public final class StandInBuild {
    private static Path library;

    private StandInBuild() {}

    public static synchronized Path library() {
        if (library != null) return library;
        String gcc = HostTools.gcc();
        try {
            Path dir = Path.of("target", "vfio-standin").toAbsolutePath();
            Files.createDirectories(dir);
            Path c = dir.resolve(VfioStandIn.SOURCE);
            Files.writeString(c, VfioStandIn.source(), StandardCharsets.UTF_8);
            Path so = dir.resolve("libprmkit_vfio_standin.so");
            Child.run(Duration.ofSeconds(120), gcc, "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", so.toString(), c.toString(), "-ldl")
                    .assertSuccess();
            library = so;
            return so;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
