package io.prmkit.dsl.ir;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * Where a member sits when it belongs to a union written inline in a structure. All alternatives of
 * one union share {@code union}; members of one alternative share {@code alternative}. A tagged
 * union names its selector field, and each alternative the selector value that chooses it.
 *
 * @param union       the union's name, or {@code union_at_<hex bit offset>} for an anonymous union
 * @param alternative the alternative's name (a group's name, or the member's own name)
 * @param selector    the selector field's name in the same structure, or "" when untagged
 * @param tag         the selector value choosing this alternative, if any
 */
public record Variant(String union, String alternative, String selector, OptionalLong tag) {
    public Variant {
        Objects.requireNonNull(union, "union == null");
        Objects.requireNonNull(alternative, "alternative == null");
        Objects.requireNonNull(selector, "selector == null");
        Objects.requireNonNull(tag, "tag == null");
    }
}
