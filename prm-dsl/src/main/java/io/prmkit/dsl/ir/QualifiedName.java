package io.prmkit.dsl.ir;

import java.util.Objects;

/** A declaration's name within its spec package, e.g. {@code mlx5.cqc}. */
public record QualifiedName(String pkg, String name) implements Comparable<QualifiedName> {
    public QualifiedName {
        Objects.requireNonNull(pkg, "pkg == null");
        Objects.requireNonNull(name, "name == null");
        if (name.isEmpty()) throw new IllegalArgumentException("empty name");
    }

    /** Parses {@code a.b.c} as package {@code a.b} and name {@code c}; no dot means the empty package. */
    public static QualifiedName parse(String dotted) {
        int i = dotted.lastIndexOf('.');
        return i < 0 ? new QualifiedName("", dotted) : new QualifiedName(dotted.substring(0, i), dotted.substring(i + 1));
    }

    @Override
    public int compareTo(QualifiedName o) {
        int c = pkg.compareTo(o.pkg);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return pkg.isEmpty() ? name : pkg + "." + name;
    }
}
