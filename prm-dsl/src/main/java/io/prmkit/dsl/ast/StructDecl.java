package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code struct} or {@code union} declaration. A struct's items are members and inline unions; a
 * union's items are its alternatives (members and {@link GroupAlt}s).
 */
public record StructDecl(
        Name name,
        boolean union,
        Optional<Num> size,
        boolean littleEndian,
        boolean gapsReserved,
        String ref,
        String since,
        String doc,
        List<Item> items,
        List<RuleDecl> rules,
        List<JoinDecl> joins,
        SourceLocation location) implements Decl {

    /** A structure without joins. */
    public StructDecl(Name name, boolean union, Optional<Num> size, boolean littleEndian, boolean gapsReserved, String ref, String since,
            String doc, List<Item> items, List<RuleDecl> rules, SourceLocation location) {
        this(name, union, size, littleEndian, gapsReserved, ref, since, doc, items, rules, List.of(), location);
    }

    public StructDecl {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(size, "size == null");
        Objects.requireNonNull(ref, "ref == null");
        Objects.requireNonNull(since, "since == null");
        Objects.requireNonNull(doc, "doc == null");
        items = List.copyOf(items);
        rules = List.copyOf(rules);
        joins = List.copyOf(joins);
        Objects.requireNonNull(location, "location == null");
    }

    @Override
    public String kindWord() {
        return union ? "union" : "struct";
    }
}
