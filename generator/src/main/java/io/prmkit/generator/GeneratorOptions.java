package io.prmkit.generator;

import java.util.Objects;

/**
 * How to generate: the Java package prefix put in front of each spec package ({@code io.prmkit.gen}
 * + {@code mlx5} gives {@code io.prmkit.gen.mlx5}); empty means the spec package alone.
 */
public record GeneratorOptions(String packagePrefix) {
    public GeneratorOptions {
        Objects.requireNonNull(packagePrefix, "packagePrefix == null");
        if (!packagePrefix.isEmpty() && !Names.isQualifiedJavaName(packagePrefix)) {
            throw new IllegalArgumentException("not a valid Java package: " + packagePrefix);
        }
    }

    public static GeneratorOptions defaults() {
        return new GeneratorOptions("");
    }
}
