package io.prmkit.dsl.ir;

import java.util.List;
import java.util.Optional;

/**
 * The resolved layout of a whole spec: what emitters, the layout printer and the diff see. It holds
 * no syntax. Lists are sorted by qualified name, so equal specs give equal models whatever the order
 * of their files. Every enum or flag set a member names is in the model.
 */
public record LayoutModel(List<StructLayout> structs, List<EnumLayout> enums, List<Constant> constants) {
    public LayoutModel {
        structs = List.copyOf(structs);
        enums = List.copyOf(enums);
        constants = List.copyOf(constants);
        java.util.Set<QualifiedName> named = new java.util.HashSet<>();
        for (EnumLayout e : enums) named.add(e.name());
        for (StructLayout s : structs) {
            for (Member m : s.members()) {
                for (Optional<QualifiedName> ref : List.of(m.enumType(), m.flagsType())) {
                    if (ref.isPresent() && !named.contains(ref.get())) {
                        throw new IllegalArgumentException(s.name() + "." + m.name() + " names " + ref.get() + ", which is not an enum or flag set of the model");
                    }
                }
            }
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
