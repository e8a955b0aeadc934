package io.prmkit.doc;

import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Who uses what: the structures embedding a structure, the fields bound to an enum. In model order, so pages are deterministic. */
final class CrossRefs {

    /** A member of a structure, as a back-link target. */
    record Use(StructLayout owner, Member member) {
    }

    private final Map<QualifiedName, List<Use>> embeddedBy = new TreeMap<>();
    private final Map<QualifiedName, List<Use>> enumUsers = new TreeMap<>();
    private final Map<QualifiedName, StructLayout> structs = new TreeMap<>();
    private final Map<QualifiedName, EnumLayout> enums = new TreeMap<>();

    CrossRefs(LayoutModel model) {
        model.structs().forEach(s -> structs.put(s.name(), s));
        model.enums().forEach(e -> enums.put(e.name(), e));
        for (StructLayout s : model.structs()) {
            for (Member m : s.members()) {
                target(m.type()).ifPresent(t -> embeddedBy.computeIfAbsent(t, k -> new ArrayList<>()).add(new Use(s, m)));
                m.enumType().ifPresent(e -> enumUsers.computeIfAbsent(e, k -> new ArrayList<>()).add(new Use(s, m)));
                m.flagsType().ifPresent(e -> enumUsers.computeIfAbsent(e, k -> new ArrayList<>()).add(new Use(s, m)));
            }
        }
    }

    /** The structure a member holds (directly or as array elements), if any. */
    static Optional<QualifiedName> target(MemberType t) {
        if (t instanceof MemberType.StructRef r) return Optional.of(r.target());
        if (t instanceof MemberType.Array a && a.element() instanceof MemberType.StructRef r) return Optional.of(r.target());
        return Optional.empty();
    }

    List<Use> embeddedBy(QualifiedName struct) {
        return embeddedBy.getOrDefault(struct, List.of());
    }

    List<Use> enumUsers(QualifiedName e) {
        return enumUsers.getOrDefault(e, List.of());
    }

    boolean hasStruct(QualifiedName n) {
        return structs.containsKey(n);
    }

    boolean hasEnum(QualifiedName n) {
        return enums.containsKey(n);
    }

    Optional<EnumLayout> enumLayout(QualifiedName n) {
        return Optional.ofNullable(enums.get(n));
    }
}
