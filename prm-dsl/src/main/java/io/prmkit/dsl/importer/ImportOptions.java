package io.prmkit.dsl.importer;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How {@link IfcImporter} writes its DSL files.
 *
 * @param packageName the spec package of every imported declaration (default {@code mlx5})
 */
public record ImportOptions(String packageName) {
    private static final Pattern QNAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");

    public static final ImportOptions DEFAULTS = new ImportOptions("mlx5");

    public ImportOptions {
        Objects.requireNonNull(packageName, "packageName == null");
        if (!QNAME.matcher(packageName).matches()) {
            throw new IllegalArgumentException("not a package name: '" + packageName + "'");
        }
    }
}
