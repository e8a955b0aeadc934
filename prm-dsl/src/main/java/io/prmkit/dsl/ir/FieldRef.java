package io.prmkit.dsl.ir;

import java.util.Objects;

/** A resolved reference to a field of a structure, e.g. the capability bit {@code mlx5.cmd_hca_cap.swp}. */
public record FieldRef(QualifiedName struct, String field) {
    public FieldRef {
        Objects.requireNonNull(struct, "struct == null");
        Objects.requireNonNull(field, "field == null");
    }

    @Override
    public String toString() {
        return struct + "." + field;
    }
}
