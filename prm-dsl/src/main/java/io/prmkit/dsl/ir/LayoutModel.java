package io.prmkit.dsl.ir;

import java.util.List;
import java.util.Optional;

/**
 * The resolved layout of a whole spec: what emitters, the layout printer and the diff see. It holds
 * no syntax. Lists are sorted by qualified name, so equal specs give equal models whatever the order
 * of their files. Every structure a member holds is in the model, with the size the member
 * assumes; every enum or flag set a member names is in the model, of that kind, with values the
 * member can hold. Every command's structures are in the model with the sizes it assumes, its
 * input begins with the opcode, and no two commands of a package share an opcode; every register's
 * layout and carrying command are in the model, and no two registers share an id.
 */
public record LayoutModel(List<StructLayout> structs, List<EnumLayout> enums, List<Constant> constants,
                          List<CommandLayout> commands, List<RegisterLayout> registers, List<WqeLayout> wqes) {

    /** A model without commands, registers or WQEs. */
    public LayoutModel(List<StructLayout> structs, List<EnumLayout> enums, List<Constant> constants) {
        this(structs, enums, constants, List.of(), List.of(), List.of());
    }

    /** A model without WQEs. */
    public LayoutModel(List<StructLayout> structs, List<EnumLayout> enums, List<Constant> constants,
                       List<CommandLayout> commands, List<RegisterLayout> registers) {
        this(structs, enums, constants, commands, registers, List.of());
    }

    public LayoutModel {
        structs = List.copyOf(structs);
        enums = List.copyOf(enums);
        constants = List.copyOf(constants);
        commands = List.copyOf(commands);
        registers = List.copyOf(registers);
        wqes = List.copyOf(wqes);
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
        java.util.Map<QualifiedName, CommandLayout> byName = new java.util.HashMap<>();
        java.util.Map<String, CommandLayout> byOpcode = new java.util.HashMap<>();
        for (CommandLayout c : commands) {
            byName.put(c.name(), c);
            sized(c.name() + "'s input", c.in(), c.inBytes(), declared);
            sized(c.name() + "'s output", c.out(), c.outBytes(), declared);
            Member op = declared.get(c.in()).member("opcode").orElse(null);
            if (op == null || op.bitOffset() != 0 || op.bitWidth() != 16 || !op.isScalar()) {
                throw new IllegalArgumentException(c.name() + "'s input " + c.in() + " does not begin with a 16-bit opcode field");
            }
            CommandLayout same = byOpcode.put(c.name().pkg() + ":" + c.opcode(), c);
            if (same != null) throw new IllegalArgumentException(c.name() + " and " + same.name() + " share opcode 0x" + Long.toHexString(c.opcode()));
            if (c.registers().isPresent()) {
                CommandLayout.RegisterCarrier r = c.registers().get();
                Member id = declared.get(c.in()).member(r.idField()).orElse(null);
                if (id == null || !id.isScalar()) throw new IllegalArgumentException(c.name() + ": " + r.idField() + " is not a bit field of " + c.in());
            }
        }
        java.util.Map<String, RegisterLayout> byId = new java.util.HashMap<>();
        for (RegisterLayout r : registers) {
            StructLayout layout = declared.get(r.layout());
            if (layout == null) throw new IllegalArgumentException(r.name() + "'s layout " + r.layout() + " is not a structure of the model");
            CommandLayout c = byName.get(r.command());
            if (c == null || c.registers().isEmpty()) throw new IllegalArgumentException(r.name() + "'s command " + r.command() + " is not a command of the model that carries registers");
            long w = declared.get(c.in()).member(c.registers().get().idField()).orElseThrow().bitWidth();
            if (w < 64 && (r.id() >>> w) != 0) throw new IllegalArgumentException(r.name() + "'s id 0x" + Long.toHexString(r.id()) + " does not fit " + w + " bits");
            RegisterLayout same = byId.put(r.command() + ":" + r.id(), r);
            if (same != null) throw new IllegalArgumentException(r.name() + " and " + same.name() + " share register id 0x" + Long.toHexString(r.id()));
        }
        for (WqeLayout w : wqes) wqeStructs(w, declared);
    }

    /** Every structure a WQE's segments and lookups name is in the model. */
    private static void wqeStructs(WqeLayout w, java.util.Map<QualifiedName, StructLayout> declared) {
        List<QualifiedName> used = new java.util.ArrayList<>();
        for (WqeLayout.Segment s : w.segments()) {
            s.struct().ifPresent(used::add);
            s.alternatives().forEach(a -> a.struct().ifPresent(used::add));
        }
        w.givens().forEach(g -> g.lookup().ifPresent(used::add));
        for (QualifiedName q : used) {
            if (!declared.containsKey(q)) throw new IllegalArgumentException(w.name() + " uses " + q + ", which is not a structure of the model");
        }
    }

    /** The WQE with this simple name, if exactly one package declares it. */
    public Optional<WqeLayout> wqe(String simpleName) {
        List<WqeLayout> hits = wqes.stream().filter(w -> w.name().name().equals(simpleName)).toList();
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    private static void sized(String what, QualifiedName name, long bytes, java.util.Map<QualifiedName, StructLayout> declared) {
        StructLayout s = declared.get(name);
        if (s == null || s.sizeBytes() != bytes) {
            throw new IllegalArgumentException(what + " " + name + (s == null ? " is not a structure of the model" : " has " + s.sizeBytes() + " bytes, not " + bytes));
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

    /** The command with this opcode in spec package {@code pkg}, if one is declared. */
    public Optional<CommandLayout> command(String pkg, long opcode) {
        return commands.stream().filter(c -> c.name().pkg().equals(pkg) && c.opcode() == opcode).findFirst();
    }

    /** The command with this opcode, if exactly one package declares one. */
    public Optional<CommandLayout> command(long opcode) {
        List<CommandLayout> hits = commands.stream().filter(c -> c.opcode() == opcode).toList();
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    /** The command with this simple name, if exactly one package declares it. */
    public Optional<CommandLayout> command(String simpleName) {
        List<CommandLayout> hits = commands.stream().filter(c -> c.name().name().equals(simpleName)).toList();
        return hits.size() == 1 ? Optional.of(hits.get(0)) : Optional.empty();
    }

    public Optional<EnumLayout> enumType(QualifiedName name) {
        return enums.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
