package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.CommandDecl;
import io.prmkit.dsl.ast.Decl;
import io.prmkit.dsl.ast.EnumDecl;
import io.prmkit.dsl.ast.Num;
import io.prmkit.dsl.ast.QName;
import io.prmkit.dsl.ast.RegisterDecl;
import io.prmkit.dsl.ast.SpecFile;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.ValueRef;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.RegisterLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Commands and registers: each command's input and output are structures that begin with the
 * command headers (input: a 16-bit {@code opcode} at 0x00 [31:16]; output: {@code status} and
 * {@code syndrome}), its opcode is a value of the enum of the input's opcode field (when it has
 * one), its oldest input length is a multiple of 4 between the 8-byte header and the input's size,
 * its op_mod values come from one enum or are named in the command; no two commands of a package
 * share an opcode. A register's id is a value of the enum of the carrying command's register id
 * field; no two registers share an id.
 */
final class CommandsPass implements Pass {
    @Override
    public String name() {
        return "commands";
    }

    private final List<Diagnostic> diags = new ArrayList<>();
    private Compilation c;
    private final Map<QualifiedName, EnumLayout> enumsByName = new HashMap<>();

    @Override
    public List<Diagnostic> run(Compilation c) {
        this.c = c;
        diags.clear();
        for (EnumLayout e : c.enums.values()) enumsByName.put(e.name(), e);
        Map<String, Map<Long, CommandDecl>> opcodes = new HashMap<>();
        for (Decl d : c.decls()) {
            if (!(d instanceof CommandDecl k)) continue;
            CommandLayout cl = command(k);
            if (cl == null) continue;
            CommandDecl first = opcodes.computeIfAbsent(cl.name().pkg(), p -> new HashMap<>()).putIfAbsent(cl.opcode(), k);
            if (first != null) {
                error(k.name().location(), "commands '" + k.name().text() + "' and '" + first.name().text() + "' have the same opcode 0x"
                        + Long.toHexString(cl.opcode()), new Diagnostic.Related(first.name().location(), "'" + first.name().text() + "' is here"));
                continue;
            }
            c.commands.put(k, cl);
        }
        Map<QualifiedName, Map<Long, RegisterDecl>> ids = new HashMap<>();
        for (Decl d : c.decls()) {
            if (!(d instanceof RegisterDecl r)) continue;
            RegisterLayout rl = register(r);
            if (rl == null) continue;
            RegisterDecl first = ids.computeIfAbsent(rl.command(), p -> new HashMap<>()).putIfAbsent(rl.id(), r);
            if (first != null) {
                error(r.name().location(), "registers '" + r.name().text() + "' and '" + first.name().text() + "' have the same id 0x"
                        + Long.toHexString(rl.id()), new Diagnostic.Related(first.name().location(), "'" + first.name().text() + "' is here"));
                continue;
            }
            c.registers.put(r, rl);
        }
        return List.copyOf(diags);
    }

    private CommandLayout command(CommandDecl k) {
        SpecFile file = c.fileOf.get(k);
        String what = "command '" + k.name().text() + "'";
        Layout in = structure(k, k.in(), file, what, "input", "in");
        Layout out = structure(k, k.out(), file, what, "output", "out");
        if (in == null || out == null) return null;
        String inName = in.decl.name().text();
        String outName = out.decl.name().text();
        Layout.LaidMember opField = member(in, "opcode");
        if (opField == null || opField.bitOffset != 0 || opField.type.bitWidth() != 16 || !opField.isScalar()) {
            error(k.in().get().location(), "the input '" + inName + "' does not begin with the command header: a 16-bit 'opcode' at 0x00 [31:16]");
            return null;
        }
        Layout.LaidMember status = member(out, "status");
        Layout.LaidMember syndrome = member(out, "syndrome");
        if (status == null || status.bitOffset != 0 || status.type.bitWidth() != 8
                || syndrome == null || syndrome.bitOffset != 32 || syndrome.type.bitWidth() != 32) {
            error(k.out().get().location(), "the output '" + outName + "' does not begin with the command output header: 'status' at 0x00 [31:24], 'syndrome' at 0x04");
            return null;
        }
        long inBytes = in.sizeBits / 8;
        long outBytes = out.sizeBits / 8;
        if (inBytes < CommandLayout.HEADER_BYTES || outBytes < CommandLayout.HEADER_BYTES) {
            error(k.location(), what + ": input and output must hold the 8-byte command header");
            return null;
        }

        // opcode: written, or the command's own name, as a value of the enum of the input's opcode field
        Optional<QualifiedName> opEnumName = opField.enumType;
        EnumLayout opEnum = opEnumName.map(enumsByName::get).orElse(null);
        Long opcode = null;
        if (k.opcode().isPresent()) {
            ValueRef v = k.opcode().get();
            opcode = value(v, file, opEnum);
            if (opcode != null && opEnum != null && opEnum.byValue(opcode).isEmpty()) {
                error(v.location(), "opcode " + v + " is not a value of enum '" + opEnum.name().name() + "' (the enum of " + inName + ".opcode)");
                return null;
            }
        } else if (opEnum == null) {
            error(k.name().location(), what + " needs 'opcode VALUE;': " + inName + ".opcode names no enum to find '" + k.name().text() + "' in");
            return null;
        } else {
            var v = opEnum.values().stream().filter(x -> x.name().equals(k.name().text())).findFirst();
            if (v.isEmpty()) {
                error(k.name().location(), "'" + k.name().text() + "' is not a value of enum '" + opEnum.name().name() + "' (the enum of " + inName
                        + ".opcode); name the command after its opcode or write 'opcode VALUE;'");
                return null;
            }
            opcode = v.get().value();
        }
        if (opcode == null) return null;
        if (opcode > 0xffff) {
            error(k.opcode().get().location(), "opcode 0x" + Long.toHexString(opcode) + " does not fit the 16-bit opcode field");
            return null;
        }

        long oldest = inBytes;
        if (k.oldest().isPresent()) {
            Num n = k.oldest().get();
            oldest = n.value();
            if (Long.compareUnsigned(oldest, inBytes) > 0) {
                error(n.location(), "oldest input length " + n.text() + " is longer than the input '" + inName + "' (0x" + Long.toHexString(inBytes) + " bytes)");
                return null;
            }
            if (oldest < CommandLayout.HEADER_BYTES) {
                error(n.location(), "oldest input length " + n.text() + " is shorter than the 8-byte command header (opcode, op_mod)");
                return null;
            }
            if (oldest % 4 != 0) {
                error(n.location(), "oldest input length " + n.text() + " is not a multiple of 4 (command inputs are dwords)");
                return null;
            }
        }

        // op_mod: an enum named here or by the input's op_mod field, or values named here
        Layout.LaidMember opModField = member(in, "op_mod");
        Optional<QualifiedName> fieldEnum = opModField == null ? Optional.empty() : opModField.enumType;
        Optional<QualifiedName> opModEnum = Optional.empty();
        List<EnumLayout.EnumValue> opMods = List.of();
        if (k.opModEnum().isPresent()) {
            QName q = k.opModEnum().get();
            Compilation.Lookup l = c.lookup(q, file);
            if (!l.found()) {
                error(q.location(), l.miss() == Compilation.Miss.UNKNOWN ? "unknown enum '" + q.dotted() + "'" : l.error());
                return null;
            }
            if (!(l.decl() instanceof EnumDecl ed) || ed.flags()) {
                error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not an enum");
                return null;
            }
            EnumLayout e = c.enums.get(ed);
            if (e == null) return null; // its own errors are reported
            if (fieldEnum.isPresent() && !fieldEnum.get().equals(e.name())) {
                error(q.location(), "op_mod enum '" + q.dotted() + "' is not '" + fieldEnum.get().name() + "', the enum of " + inName + ".op_mod");
                return null;
            }
            opModEnum = Optional.of(e.name());
            opMods = e.values();
        } else if (k.opModValues().isPresent()) {
            if (fieldEnum.isPresent()) {
                error(k.location(), what + " names op_mod values, but " + inName + ".op_mod already names enum '" + fieldEnum.get().name() + "'");
                return null;
            }
            opMods = opModValues(k.opModValues().get());
            if (opMods == null) return null;
        } else if (fieldEnum.isPresent()) {
            opModEnum = fieldEnum;
            EnumLayout e = enumsByName.get(fieldEnum.get());
            if (e == null) return null;
            opMods = e.values();
        }

        Optional<CommandLayout.RegisterCarrier> carrier = Optional.empty();
        if (k.carries().isPresent()) {
            CommandDecl.Carries r = k.carries().get();
            Layout.LaidMember id = member(in, r.idField().text());
            if (id == null || !id.isScalar()) {
                error(r.idField().location(), id == null ? "'" + r.idField().text() + "' is not a field of the input '" + inName + "'"
                        : "'" + r.idField().text() + "' of '" + inName + "' is not a bit field");
                return null;
            }
            Layout.LaidMember inData = member(in, r.dataMember().text());
            Layout.LaidMember outData = member(out, r.dataMember().text());
            if (inData == null || outData == null) {
                error(r.dataMember().location(), "'" + r.dataMember().text() + "' is not a member of " + (inData == null ? "the input '" + inName + "'" : "the output '" + outName + "'"));
                return null;
            }
            if (inData.bitOffset % 32 != 0 || outData.bitOffset % 32 != 0 || inData.bitOffset < 64 || outData.bitOffset < 64) {
                error(r.dataMember().location(), "register data '" + r.dataMember().text() + "' must start on a dword after the command header");
                return null;
            }
            carrier = Optional.of(new CommandLayout.RegisterCarrier(r.idField().text(), r.dataMember().text(), inData.bitOffset / 8, outData.bitOffset / 8));
        }
        return new CommandLayout(c.qualifiedName(k), opcode, opEnumName, c.qualifiedName(in.decl), c.qualifiedName(out.decl), inBytes, outBytes,
                oldest, opModEnum, opMods, carrier, new Doc(k.doc(), k.ref(), k.since()), k.location());
    }

    private List<EnumLayout.EnumValue> opModValues(List<EnumDecl.Value> values) {
        Map<String, EnumDecl.Value> names = new HashMap<>();
        List<EnumLayout.EnumValue> out = new ArrayList<>();
        boolean ok = true;
        for (EnumDecl.Value v : values) {
            EnumDecl.Value first = names.putIfAbsent(v.name().text(), v);
            if (first != null) {
                error(v.name().location(), "duplicate op_mod name '" + v.name().text() + "'", new Diagnostic.Related(first.name().location(), "first declared here"));
                ok = false;
            } else if (Long.compareUnsigned(v.value().value(), 0xffff) > 0) {
                error(v.value().location(), "op_mod " + v.value().text() + " does not fit the 16-bit op_mod field");
                ok = false;
            } else {
                out.add(new EnumLayout.EnumValue(v.name().text(), v.value().value(), new Doc(v.doc(), "", ""), v.detail(), v.location()));
            }
        }
        return ok ? out : null;
    }

    private RegisterLayout register(RegisterDecl r) {
        SpecFile file = c.fileOf.get(r);
        String what = "register '" + r.name().text() + "'";
        List<CommandDecl> carriers = new ArrayList<>();
        List<String> pkgs = new ArrayList<>();
        pkgs.add(file.pkg().dotted());
        file.imports().forEach(i -> pkgs.add(i.pkg().dotted()));
        for (String p : pkgs) {
            for (Decl d : c.packages.getOrDefault(p, Map.of()).values()) {
                if (d instanceof CommandDecl k && k.carries().isPresent()) carriers.add(k);
            }
        }
        if (carriers.isEmpty()) {
            error(r.name().location(), what + ": no command carries registers (declare one with 'register ID_FIELD data MEMBER;')");
            return null;
        }
        if (carriers.size() > 1) {
            error(r.name().location(), what + ": commands " + carriers.stream().map(k -> "'" + k.name().text() + "'").toList()
                    + " all carry registers; keep one");
            return null;
        }
        CommandDecl carrierDecl = carriers.get(0);
        CommandLayout carrier = c.commands.get(carrierDecl);
        Layout layout = structure(r, r.layout(), file, what, "layout", "layout");
        if (carrier == null || layout == null) return null;
        Layout in = c.layouts.get(structDecl(carrier.in()));
        Layout.LaidMember idField = member(in, carrier.registers().get().idField());
        EnumLayout idEnum = idField.enumType.map(enumsByName::get).orElse(null);
        Long id;
        String field = carrier.in().name() + "." + idField.name;
        if (r.id().isPresent()) {
            ValueRef v = r.id().get();
            id = value(v, file, idEnum);
            if (id != null && idEnum != null && idEnum.byValue(id).isEmpty()) {
                error(v.location(), "register id " + v + " is not a value of enum '" + idEnum.name().name() + "' (the enum of " + field + ")");
                return null;
            }
        } else if (idEnum == null) {
            error(r.name().location(), what + " needs 'id VALUE;': " + field + " names no enum to find '" + r.name().text() + "' in");
            return null;
        } else {
            var v = idEnum.values().stream().filter(x -> x.name().equals(r.name().text())).findFirst();
            if (v.isEmpty()) {
                error(r.name().location(), "'" + r.name().text() + "' is not a value of enum '" + idEnum.name().name() + "' (the enum of " + field
                        + "); name the register after its id or write 'id VALUE;'");
                return null;
            }
            id = v.get().value();
        }
        if (id == null) return null;
        long w = idField.type.bitWidth();
        if (w < 64 && (id >>> w) != 0) {
            error(r.id().map(ValueRef::location).orElse(r.name().location()), "register id 0x" + Long.toHexString(id) + " does not fit the " + w + "-bit " + field);
            return null;
        }
        return new RegisterLayout(c.qualifiedName(r), id, c.qualifiedName(layout.decl), carrier.name(), new Doc(r.doc(), r.ref(), r.since()), r.location());
    }

    private StructDecl structDecl(QualifiedName q) {
        return (StructDecl) c.packages.get(q.pkg()).get(q.name());
    }

    /** The laid-out structure a clause names, or null after reporting why there is none. */
    private Layout structure(Decl owner, Optional<QName> ref, SpecFile file, String what, String role, String clause) {
        if (ref.isEmpty()) {
            error(owner.name().location(), what + " has no " + role + " structure: write '" + clause + " NAME;'");
            return null;
        }
        QName q = ref.get();
        Compilation.Lookup l = c.lookup(q, file);
        if (!l.found()) {
            if (l.miss() != Compilation.Miss.REPORTED) {
                error(q.location(), l.miss() == Compilation.Miss.UNKNOWN ? "unknown structure '" + q.dotted() + "' (the " + role + " of " + what + ")" : l.error());
            }
            return null;
        }
        if (!(l.decl() instanceof StructDecl s)) {
            error(q.location(), "'" + q.dotted() + "' is " + Compilation.article(l.decl().kindWord()) + ", not a structure");
            return null;
        }
        Layout lay = c.layouts.get(s);
        if (lay == null || c.broken.contains(s)) return null; // its own errors are reported
        return lay;
    }

    private static Layout.LaidMember member(Layout l, String name) {
        for (Layout.LaidMember m : l.members) {
            if (m.name.equals(name)) return m;
        }
        return null;
    }

    private Long value(ValueRef v, SpecFile file, EnumLayout preferred) {
        if (v instanceof Num n) return n.value();
        Compilation.Value r = c.value((QName) v, file, preferred);
        if (!r.found()) {
            if (r.miss() != Compilation.Miss.REPORTED) error(v.location(), r.error());
            return null;
        }
        return r.value();
    }

    private void error(SourceLocation at, String message, Diagnostic.Related... related) {
        diags.add(Diagnostic.error(at, message, related));
    }
}
