package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;

/**
 * A device register reached through the command that carries registers: its id (the value of that
 * command's register id field) and its layout.
 *
 * @param name     the register's spec name, e.g. {@code mlx5.PMTU}
 * @param id       the register id
 * @param layout   the register's structure, e.g. {@code mlx5.pmtu_reg}
 * @param command  the command that carries it (ACCESS_REG)
 * @param doc      description and PRM reference
 * @param location where it is declared
 */
public record RegisterLayout(QualifiedName name, long id, QualifiedName layout, QualifiedName command, Doc doc, SourceLocation location) {
    public RegisterLayout {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(layout, "layout == null");
        Objects.requireNonNull(command, "command == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        if (id < 0) throw new IllegalArgumentException(name + ": negative register id");
    }
}
