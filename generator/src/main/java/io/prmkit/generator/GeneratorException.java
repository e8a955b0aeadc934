package io.prmkit.generator;

import java.util.List;

/**
 * The layout model cannot be turned into Java: names that collide once converted, or a member whose
 * placement the accessors cannot express. Carries every problem found, each naming where.
 */
public final class GeneratorException extends RuntimeException {
    private final List<String> problems;

    public GeneratorException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
