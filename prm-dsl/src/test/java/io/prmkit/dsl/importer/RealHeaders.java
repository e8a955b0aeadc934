package io.prmkit.dsl.importer;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the kernel's mlx5 headers from the Debian package linux-headers-VERSION-common. The tests
 * that use them never skip: without the package they fail and say what to install.
 */
public final class RealHeaders {
    private RealHeaders() {}

    /** The include/linux/mlx5 folder: -Dprmkit.ifc.dir, $PRMKIT_IFC_DIR, or the newest installed package. */
    public static Path mlx5Dir() {
        String given = System.getProperty("prmkit.ifc.dir", System.getenv("PRMKIT_IFC_DIR"));
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given);
            if (!Files.isRegularFile(p.resolve("mlx5_ifc.h"))) fail("no mlx5_ifc.h in " + p + " (from prmkit.ifc.dir / PRMKIT_IFC_DIR)");
            return p;
        }
        try (Stream<Path> dirs = Files.list(Path.of("/usr/src"))) {
            List<Path> found = dirs.filter(d -> d.getFileName().toString().matches("linux-headers-.*-common"))
                    .map(d -> d.resolve("include/linux/mlx5"))
                    .filter(d -> Files.isRegularFile(d.resolve("mlx5_ifc.h")))
                    .sorted(Comparator.comparing(RealHeaders::versionKey))
                    .toList();
            if (!found.isEmpty()) return found.get(found.size() - 1);
        } catch (IOException e) {
            // fall through to the message below
        }
        return fail("the kernel's mlx5_ifc.h is needed: install the Debian package linux-headers-*-common"
                + " (e.g. apt-get install linux-headers-6.1.0-50-common) or point -Dprmkit.ifc.dir at a folder holding mlx5_ifc.h"
                + (System.getenv("CI") != null ? " (running in CI: the real-header tests must run)" : ""));
    }

    /** Sorts 6.1.0-9 before 6.1.0-50: numbers compare as numbers. */
    private static String versionKey(Path p) {
        Matcher m = Pattern.compile("\\d+").matcher(p.toString());
        StringBuilder sb = new StringBuilder();
        while (m.find()) sb.append(String.format("%010d.", Long.parseLong(m.group())));
        return sb.toString();
    }
}
