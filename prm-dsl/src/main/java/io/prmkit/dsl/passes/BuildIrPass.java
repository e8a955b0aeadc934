package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ast.ConstDecl;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.RegisterLayout;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.Variant;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Copies the resolved layouts into the immutable IR, sorted by qualified name. Runs only when no
 * earlier pass reported an error: the IR's constructors check placement, sizes, rule fields and
 * enum references, and a spec with errors may hold half-resolved layouts that break them.
 */
final class BuildIrPass implements Pass {
    @Override
    public String name() {
        return "ir";
    }

    @Override
    public boolean runsAfterErrors() {
        return false;
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<StructLayout> structs = new ArrayList<>();
        for (StructDecl s : c.structs()) {
            Layout lay = c.layouts.get(s);
            if (lay == null) continue;
            List<Member> members = new ArrayList<>();
            for (Layout.LaidMember m : lay.members) {
                Optional<Variant> variant = Optional.empty();
                boolean inlineUnion = m.union != null && m.union.inline;
                if (inlineUnion || (m.union != null && (!m.directAlternative || m.when != null))) {
                    variant = Optional.of(new Variant(m.union.name, m.alternative, m.variantSelector, m.tagValue));
                }
                members.add(new Member(m.name, m.bitOffset, m.type, m.reserved, m.access, m.enumType, m.flagsType,
                        m.constraints, m.capability, variant, m.selector, m.doc, m.location));
            }
            structs.add(new StructLayout(c.qualifiedName(s), s.union() ? StructLayout.Kind.UNION : StructLayout.Kind.STRUCT,
                    lay.sizeBits / 8, s.littleEndian() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN, members, lay.rules, lay.joins,
                    new Doc(s.doc(), s.ref(), s.since()), s.location()));
        }
        structs.sort(Comparator.comparing(StructLayout::name));
        List<EnumLayout> enums = new ArrayList<>(c.enums.values());
        enums.sort(Comparator.comparing(EnumLayout::name));
        List<Constant> constants = new ArrayList<>();
        for (Map.Entry<QualifiedName, ConstDecl> e : c.constants().entrySet()) {
            ConstDecl k = e.getValue();
            constants.add(new Constant(e.getKey(), k.value().value(), new Doc(k.doc(), "", ""), k.location()));
        }
        constants.sort(Comparator.comparing(Constant::name));
        List<CommandLayout> commands = new ArrayList<>(c.commands.values());
        commands.sort(Comparator.comparing(CommandLayout::name));
        List<RegisterLayout> registers = new ArrayList<>(c.registers.values());
        registers.sort(Comparator.comparing(RegisterLayout::name));
        List<io.prmkit.dsl.ir.WqeLayout> wqes = new ArrayList<>(c.wqes.values());
        wqes.sort(Comparator.comparing(io.prmkit.dsl.ir.WqeLayout::name));
        c.model = new LayoutModel(structs, enums, constants, commands, registers, wqes);
        return List.of();
    }
}
