package io.prmkit.dsl.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.SourceLocation;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The IR records refuse what the compiler never produces and the generator cannot express, so
 * consumers (generator, doc, diff) need not check it again.
 */
class IrInvariantsTest {
    private static final SourceLocation AT = new SourceLocation("t.prm", 1, 1);
    private static final QualifiedName S = new QualifiedName("p", "s");

    private static Member member(String name, long bit, MemberType type, boolean reserved) {
        return new Member(name, bit, type, reserved, Access.RW, Optional.empty(), Optional.empty(),
                reserved ? Constraints.MBZ : Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT);
    }

    private static Member field(String name, long bit, int width) {
        return member(name, bit, new MemberType.Bits(width), false);
    }

    private static String refused(Executable e) {
        return assertThrows(IllegalArgumentException.class, e).getMessage();
    }

    private static StructLayout struct(long size, List<Member> members, List<Rule> rules) {
        return new StructLayout(S, StructLayout.Kind.STRUCT, size, ByteOrder.BIG_ENDIAN, members, rules, Doc.NONE, AT);
    }

    @Test
    void bitFieldsStayInADwordOrStartOnOne() {
        assertEquals("'crosses' at bit 0x18: a 16-bit field crosses a dword boundary", refused(() -> field("crosses", 24, 16)));
        assertEquals("'wide' at bit 0x28: a 40-bit field must start on a dword boundary", refused(() -> field("wide", 40, 40)));
        assertEquals("'word' at bit 0x8: a 32-bit field must start on a dword boundary", refused(() -> field("word", 8, 32)));
        field("ok", 16, 16);
        field("u64", 64, 64);
        member("reserved_at_18", 24, new MemberType.Bits(40), true); // reserved space may straddle dwords
    }

    @Test
    void bytesAndStructuresStartOnAByte() {
        assertEquals("'mac' at bit 0x4: a byte array or structure must start on a byte boundary",
                refused(() -> member("mac", 4, new MemberType.Bytes(6), false)));
        assertEquals("'ctx' at bit 0x1: a byte array or structure must start on a byte boundary",
                refused(() -> member("ctx", 1, new MemberType.StructRef(new QualifiedName("p", "c"), 32), false)));
        assertEquals("'segs' at bit 0x4: an array of structures must start on a byte boundary",
                refused(() -> member("segs", 4, new MemberType.Array(new MemberType.StructRef(new QualifiedName("p", "c"), 32), 2, false), false)));
    }

    @Test
    void everyElementOfABitArrayIsPlaceable() {
        assertEquals("'arr' at bit 0x60: element 2: a 12-bit field crosses a dword boundary",
                refused(() -> member("arr", 96, new MemberType.Array(new MemberType.Bits(12), 3, false), false)));
        assertEquals("'pas' at bit 0x0: elements of 48 bits cannot all start on a dword boundary",
                refused(() -> member("pas", 0, new MemberType.Array(new MemberType.Bits(48), 0, true), false)));
        assertEquals("'flex' at bit 0x8: element 1: a 16-bit field crosses a dword boundary",
                refused(() -> member("flex", 8, new MemberType.Array(new MemberType.Bits(16), 0, true), false)));
        member("two", 96, new MemberType.Array(new MemberType.Bits(12), 2, false), false); // 0x60..0x77: in one dword
        member("pas", 64, new MemberType.Array(new MemberType.Bits(64), 0, true), false);
        member("reserved_at_3", 3, new MemberType.Array(new MemberType.Bits(1), 70, false), true);
    }

    @Test
    void membersFitTheStructure() {
        assertEquals("p.s.y ends at bit 0x40, past the 4-byte struct",
                refused(() -> struct(4, List.of(field("x", 0, 32), field("y", 32, 32)), List.of())));
        struct(4, List.of(field("x", 0, 32), member("pas", 32, new MemberType.Array(new MemberType.Bits(64), 0, true), false)), List.of());
        assertEquals("p.s.pas ends at bit 0x40, past the 4-byte struct",
                refused(() -> struct(4, List.of(field("x", 0, 32), member("pas", 64, new MemberType.Array(new MemberType.Bits(64), 0, true), false)),
                        List.of())));
    }

    @Test
    void rulesReadBitFieldsOfTheirStructure() {
        Rule missing = new Rule("r1", new Expr.Binary(Expr.BinaryOp.EQ, new Expr.FieldValue("y"), new Expr.Literal(1, "1")), "m", AT);
        assertEquals("rule r1 of p.s reads y, which is not a bit field of it", refused(() -> struct(4, List.of(field("x", 0, 32)), List.of(missing))));
        Rule bytes = new Rule("r2", new Expr.Unary(Expr.UnaryOp.NOT, new Expr.FieldValue("mac")), "m", AT);
        assertEquals("rule r2 of p.s reads mac, which is not a bit field of it",
                refused(() -> struct(8, List.of(member("mac", 0, new MemberType.Bytes(8), false)), List.of(bytes))));
        struct(4, List.of(field("x", 0, 32)), List.of(new Rule("ok", new Expr.FieldValue("x"), "m", AT)));
    }

    @Test
    void enumValuesFitTheirWidth() {
        EnumLayout.EnumValue five = new EnumLayout.EnumValue("A", 5, Doc.NONE, "", AT);
        assertEquals("p.f.A: bit 5 does not fit 4 bits",
                refused(() -> new EnumLayout(new QualifiedName("p", "f"), EnumLayout.Kind.FLAGS, 4, List.of(five), Doc.NONE, AT)));
        assertEquals("p.e.A: value 5 does not fit 2 bits",
                refused(() -> new EnumLayout(new QualifiedName("p", "e"), EnumLayout.Kind.ENUM, 2, List.of(five), Doc.NONE, AT)));
        EnumLayout.EnumValue big = new EnumLayout.EnumValue("B", 64, Doc.NONE, "", AT);
        assertEquals("p.f.B: bit 64 does not fit 64 bits",
                refused(() -> new EnumLayout(new QualifiedName("p", "f"), EnumLayout.Kind.FLAGS, 0, List.of(big), Doc.NONE, AT)));
        new EnumLayout(new QualifiedName("p", "e"), EnumLayout.Kind.ENUM, 0, List.of(big), Doc.NONE, AT);
        new EnumLayout(new QualifiedName("p", "f"), EnumLayout.Kind.FLAGS, 8, List.of(five), Doc.NONE, AT);
    }

    @Test
    void aModelHoldsTheEnumsItsMembersName() {
        Member op = new Member("op", 0, new MemberType.Bits(8), false, Access.RW, Optional.of(new QualifiedName("p", "opcode")), Optional.empty(),
                Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT);
        Member fl = new Member("fl", 8, new MemberType.Bits(8), false, Access.RW, Optional.empty(), Optional.of(new QualifiedName("p", "bits")),
                Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT);
        StructLayout s = struct(4, List.of(op, fl), List.of());
        assertEquals("p.s.op names p.opcode, which is not an enum or flag set of the model",
                refused(() -> new LayoutModel(List.of(s), List.of(), List.of())));
        EnumLayout opcode = new EnumLayout(new QualifiedName("p", "opcode"), EnumLayout.Kind.ENUM, 8, List.of(), Doc.NONE, AT);
        assertEquals("p.s.fl names p.bits, which is not an enum or flag set of the model",
                refused(() -> new LayoutModel(List.of(s), List.of(opcode), List.of())));
        EnumLayout bits = new EnumLayout(new QualifiedName("p", "bits"), EnumLayout.Kind.FLAGS, 8, List.of(), Doc.NONE, AT);
        new LayoutModel(List.of(s), List.of(opcode, bits), List.of());
    }

    @Test
    void rangesAreNonEmptyAndFitTheirField() {
        assertEquals("empty range 5..4",
                refused(() -> new Constraints(java.util.OptionalLong.of(5), java.util.OptionalLong.of(4), false, false, false)));
        new Constraints(java.util.OptionalLong.of(1), java.util.OptionalLong.of(-1L), false, false, false); // unsigned: 1..2^64-1
        Constraints upTo16 = new Constraints(java.util.OptionalLong.empty(), java.util.OptionalLong.of(16), false, false, false);
        assertEquals("'log_sz': range maximum 16 does not fit 4 bits",
                refused(() -> new Member("log_sz", 0, new MemberType.Bits(4), false, Access.RW, Optional.empty(), Optional.empty(), upTo16,
                        Optional.empty(), Optional.empty(), "", Doc.NONE, AT)));
        new Member("log_sz", 0, new MemberType.Bits(5), false, Access.RW, Optional.empty(), Optional.empty(), upTo16,
                Optional.empty(), Optional.empty(), "", Doc.NONE, AT);
    }

    @Test
    void boundEnumsAreOfTheirKindAndFitTheField() {
        QualifiedName opcode = new QualifiedName("p", "opcode");
        EnumLayout op8 = new EnumLayout(opcode, EnumLayout.Kind.ENUM, 8, List.of(new EnumLayout.EnumValue("NOP", 0, Doc.NONE, "", AT)), Doc.NONE, AT);
        EnumLayout any = new EnumLayout(opcode, EnumLayout.Kind.ENUM, 0, List.of(new EnumLayout.EnumValue("BIG", 0x100, Doc.NONE, "", AT)), Doc.NONE, AT);
        EnumLayout flags = new EnumLayout(opcode, EnumLayout.Kind.FLAGS, 0, List.of(new EnumLayout.EnumValue("HIGH", 9, Doc.NONE, "", AT)), Doc.NONE, AT);
        java.util.function.BiFunction<Integer, Boolean, StructLayout> withField = (w, asFlags) -> struct(4, List.of(new Member("op", 0,
                new MemberType.Bits(w), false, Access.RW, asFlags ? Optional.empty() : Optional.of(opcode), asFlags ? Optional.of(opcode) : Optional.empty(),
                Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE, AT)), List.of());
        new LayoutModel(List.of(withField.apply(8, false)), List.of(op8), List.of());
        assertEquals("p.s.op has 16 bits, enum p.opcode is 8 bits wide",
                refused(() -> new LayoutModel(List.of(withField.apply(16, false)), List.of(op8), List.of())));
        assertEquals("p.opcode.BIG = 256 does not fit the 8-bit p.s.op",
                refused(() -> new LayoutModel(List.of(withField.apply(8, false)), List.of(any), List.of())));
        assertEquals("p.s.op names p.opcode as FLAGS, but it is ENUM",
                refused(() -> new LayoutModel(List.of(withField.apply(8, true)), List.of(op8), List.of())));
        assertEquals("p.opcode.HIGH = 9 does not fit the 8-bit p.s.op",
                refused(() -> new LayoutModel(List.of(withField.apply(8, true)), List.of(flags), List.of())));
        new LayoutModel(List.of(withField.apply(16, true)), List.of(flags), List.of());
        assertEquals("'b' names an enum or flag set but is not a bit field",
                refused(() -> new Member("b", 0, new MemberType.Bytes(4), false, Access.RW, Optional.of(opcode), Optional.empty(), Constraints.NONE,
                        Optional.empty(), Optional.empty(), "", Doc.NONE, AT)));
    }

    @Test
    void nestedStructuresAreInTheModelWithTheirSize() {
        QualifiedName inner = new QualifiedName("p", "inner");
        StructLayout in = new StructLayout(inner, StructLayout.Kind.STRUCT, 4, ByteOrder.BIG_ENDIAN, List.of(field("x", 0, 32)), List.of(), Doc.NONE, AT);
        StructLayout one = struct(8, List.of(member("in", 0, new MemberType.StructRef(inner, 32), false)), List.of());
        StructLayout many = struct(8, List.of(member("ins", 0, new MemberType.Array(new MemberType.StructRef(inner, 32), 2, false), false)), List.of());
        StructLayout wrong = struct(8, List.of(member("in", 0, new MemberType.StructRef(inner, 64), false)), List.of());
        new LayoutModel(List.of(in, one), List.of(), List.of());
        new LayoutModel(List.of(in, many), List.of(), List.of());
        assertEquals("p.s.in holds p.inner of 32 bits, which is not a structure of the model",
                refused(() -> new LayoutModel(List.of(one), List.of(), List.of())));
        assertEquals("p.s.ins holds p.inner of 32 bits, which is not a structure of the model",
                refused(() -> new LayoutModel(List.of(many), List.of(), List.of())));
        assertEquals("p.s.in holds p.inner of 64 bits, which has 32", refused(() -> new LayoutModel(List.of(in, wrong), List.of(), List.of())));
    }
}
