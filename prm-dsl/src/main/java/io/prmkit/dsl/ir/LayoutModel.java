package io.prmkit.dsl.ir;

import java.util.List;
import java.util.Optional;

/**
 * The resolved layout of a whole spec: what emitters, the layout printer and the diff see. It holds
 * no syntax. Lists are sorted by qualified name, so equal specs give equal models whatever the order
 * of their files. Every structure a member holds is in the model, with the size the member
 * assumes; every enum or flag set a member names is in the model, of that kind, with values the
 * member can hold.
 */
public record LayoutModel(List<StructLayout> structs, List<EnumLayout> enums, List<Constant> constants) {
    public LayoutModel {
        structs = List.copyOf(structs);
        enums = List.copyOf(enums);
        constants = List.copyOf(constants);
        java.util.Map<QualifiedName, EnumLayout> named = new java.util.HashMap<>();
        for (EnumLayout e : enums) named.put(e.name(), e);
        java.util.Map<QualifiedName, StructLayout> declared = new java.util.HashMap<>();
        for (StructLayout s : structs) declared.put(s.name(), s);
        for (StructLayout s : structs) {
            for (Member m : s.members()) {
                MemberType t = m.type() instanceof MemberType.Array a ? a.element() : m.type();
                if (t instanceof MemberType.StructRef r) {
                    StructLayout target = declared.get(r.target());
                    if (target == null || target.sizeBits() != r.targetBits()) {
                        throw new IllegalArgumentException(s.name() + "." + m.name() + " holds " + r.target() + " of " + r.targetBits() + " bits, "
                                + (target == null ? "which is not a structure of the model" : "which has " + target.sizeBits()));
                    }
                }
                if (m.enumType().isPresent()) bound(s, m, m.enumType().get(), EnumLayout.Kind.ENUM, named);
                if (m.flagsType().isPresent()) bound(s, m, m.flagsType().get(), EnumLayout.Kind.FLAGS, named);
            }
        }
    }

    /** A member's enum (flag set) is in the model, of that kind, and names only values (bits) the field can hold. */
    private static void bound(StructLayout s, Member m, QualifiedName ref, EnumLayout.Kind kind, java.util.Map<QualifiedName, EnumLayout> named) {
        String what = s.name() + "." + m.name();
        EnumLayout e = named.get(ref);
        if (e == null) throw new IllegalArgumentException(what + " names " + ref + ", which is not an enum or flag set of the model");
        if (e.kind() != kind) throw new IllegalArgumentException(what + " names " + ref + " as " + kind + ", but it is " + e.kind());
        long w = m.bitWidth(); // a bit field: Member guarantees it
        if (kind == EnumLayout.Kind.ENUM && e.width() != 0 && e.width() != w) {
            throw new IllegalArgumentException(what + " has " + w + " bits, enum " + ref + " is " + e.width() + " bits wide");
        }
        for (EnumLayout.EnumValue v : e.values()) {
            boolean fits = kind == EnumLayout.Kind.FLAGS ? Long.compareUnsigned(v.value(), w) < 0
                    : w >= 64 || Long.compareUnsigned(v.value(), 1L << w) < 0;
            if (!fits) throw new IllegalArgumentException(ref + "." + v.name() + " = " + Long.toUnsignedString(v.value()) + " does not fit the " + w + "-bit " + what);
        }
    }

    public Optional<StructLayout> struct(QualifiedName name) {
        return structs.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** The structure with this simple name, if exactly one package declares it. */
    public Optional<StructLayout> struct(String simpleName) {
        List<StructLayout> hits = structs.stream().filter(s -> s.name().name().equals(simpleName)).toList();
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    public Optional<EnumLayout> enumType(QualifiedName name) {
        return enums.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
