package io.prmkit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.layout.PrmLayout.Access;
import io.prmkit.layout.PrmLayout.Constraints;
import io.prmkit.layout.PrmLayout.Field;
import io.prmkit.layout.PrmLayout.Join;
import io.prmkit.layout.PrmLayout.JoinPart;
import io.prmkit.layout.PrmLayout.Kind;
import io.prmkit.layout.PrmLayout.Rule;
import io.prmkit.layout.PrmLayout.Struct;
import io.prmkit.layout.PrmLayout.Variant;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the support class every generated package imports. The structures are built by hand
 * here the way generated classes build their {@code LAYOUT}.
 */
class PrmLayoutTest {

    // ---- the API-level handshake ------------------------------------------------------------------

    @Test
    void codeGeneratedForThisLevelOrAnOlderOnePasses() {
        assertEquals(PrmLayout.API, PrmLayout.requireApi(PrmLayout.API));
        assertEquals(1, PrmLayout.requireApi(1));
    }

    @Test
    void codeGeneratedForANewerLevelFailsNamingItsClassAndBothLevels() {
        LinkageError e = assertThrows(LinkageError.class, () -> PrmLayout.requireApi(PrmLayout.API + 1));
        assertEquals(PrmLayoutTest.class.getName() + " was generated for prmkit-layout API level " + (PrmLayout.API + 1)
                + ", and the io.prmkit.layout.PrmLayout it runs with has level " + PrmLayout.API
                + ": put the prmkit-layout of the prmkit that generated it (or a newer one) on the class path", e.getMessage());
    }

    // ---- building blocks --------------------------------------------------------------------------

    private static Field bits(String name, long bit, long width, Constraints c, String position) {
        return field(name, Kind.BITS, bit, width, width, 1, false, false, Access.RW, null, c, "", "",
                Optional.empty(), Optional.empty(), "", position);
    }

    private static Field field(String name, Kind kind, long bit, long width, long elementBits, int count, boolean flexible,
            boolean reserved, Access access, LongFunction<String> valueName, Constraints c, String capability, String selector,
            Optional<Variant> variant, Optional<Struct> target, String targetName, String position) {
        return new Field(name, kind, bit, width, elementBits, count, flexible, reserved, access, "", "", valueName, c,
                capability, selector, variant, target, targetName, "", "", position, "t.prm:1");
    }

    private static Constraints range(long min, long max) {
        return new Constraints(OptionalLong.of(min), OptionalLong.of(max), false, false, false);
    }

    private static final Constraints POWER_OF_TWO = new Constraints(OptionalLong.empty(), OptionalLong.empty(), true, false, false);

    /** a:8 [1..100, named], flag:1 (capability-gated), reserved:7, pow:16 (power of two), wide:64, arr:4x8. */
    private static Struct demo(ByteOrder order, List<Rule> rules) {
        return new Struct("t.demo", false, 16, order, List.of(
                field("a", Kind.BITS, 0, 8, 8, 1, false, false, Access.RW, v -> v == 5 ? "FIVE" : null, range(1, 100), "", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x00 [31:24]"),
                field("flag", Kind.BITS, 8, 1, 1, 1, false, false, Access.RW, null, Constraints.NONE, "caps.flag_ok", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x00 [23]"),
                field("reserved_at_9", Kind.BITS, 9, 7, 7, 1, false, true, Access.RW, null, Constraints.MBZ, "", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x00 [22:16]"),
                bits("pow", 16, 16, POWER_OF_TWO, "dword 0x00 [15:0]"),
                bits("wide", 32, 64, Constraints.NONE, "bytes 0x04..0x0b"),
                field("arr", Kind.BITS_ARRAY, 96, 32, 8, 4, false, false, Access.RW, null, range(0, 9), "", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x0c [31:0]")),
                rules, "A demo.", "", "t.prm:1");
    }

    private static Struct demo() {
        return demo(ByteOrder.BIG_ENDIAN, List.of());
    }

    private static MemorySegment zeros(long size) {
        return Arena.ofAuto().allocate(size, 8);
    }

    private static final ValueLayout.OfInt BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    // ---- records ----------------------------------------------------------------------------------

    @Test
    void accessWritableIsRwWoAndIn() {
        List<Access> writable = new ArrayList<>();
        for (Access a : Access.values()) if (a.writable()) writable.add(a);
        assertEquals(List.of(Access.RW, Access.WO, Access.IN), writable);
    }

    @Test
    void recordsRejectNulls() {
        assertThrows(NullPointerException.class, () -> new Constraints(null, OptionalLong.empty(), false, false, false));
        assertThrows(NullPointerException.class, () -> new Variant("u", "a", null, OptionalLong.empty()));
        assertThrows(NullPointerException.class, () -> new Rule("r", "x", "m", "s", null));
        assertThrows(NullPointerException.class, () -> bits("x", 0, 1, null, "p"));
        assertThrows(NullPointerException.class,
                () -> new Struct("s", false, 4, null, List.of(), List.of(), "", "", ""));
    }

    @Test
    void constantsOfConstraints() {
        assertTrue(Constraints.MBZ.mustBeZero());
        assertFalse(Constraints.NONE.mustBeZero());
        assertTrue(Constraints.NONE.min().isEmpty() && Constraints.NONE.max().isEmpty());
    }

    @Test
    void variantIsTaggedOnlyWithSelectorAndTag() {
        assertTrue(new Variant("u", "a", "kind", OptionalLong.of(1)).tagged());
        assertFalse(new Variant("u", "a", "", OptionalLong.of(1)).tagged());
        assertFalse(new Variant("u", "a", "kind", OptionalLong.empty()).tagged());
    }

    @Test
    void fieldDerivedValues() {
        Field f = field("x", Kind.BITS_ARRAY, 40, 36, 12, 3, false, false, Access.RO, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.empty(), "", "p");
        assertEquals(5, f.byteOffset());
        assertEquals(2, f.elementBytes());
        assertTrue(f.isArray());
        assertNull(f.nameOf(3));
        assertFalse(bits("y", 0, 1, Constraints.NONE, "p").isArray());
        assertEquals("FIVE", demo().field("a").orElseThrow().nameOf(5));
        assertNull(demo().field("a").orElseThrow().nameOf(6));
    }

    @Test
    void structCopiesItsListsAndFindsFields() {
        List<Field> fields = new ArrayList<>(List.of(bits("x", 0, 8, Constraints.NONE, "p")));
        Struct s = new Struct("pkg.name", false, 4, ByteOrder.BIG_ENDIAN, fields, List.of(), "", "", "");
        fields.clear();
        assertEquals(1, s.fields().size());
        assertThrows(UnsupportedOperationException.class, () -> s.fields().add(bits("y", 8, 8, Constraints.NONE, "p")));
        assertEquals("name", s.simpleName());
        assertEquals("plain", new Struct("plain", false, 4, ByteOrder.BIG_ENDIAN, List.of(), List.of(), "", "", "").simpleName());
        assertTrue(s.field("x").isPresent());
        assertTrue(s.field("y").isEmpty());
    }

    // ---- reading and writing ------------------------------------------------------------------------

    @Test
    void getAndSetBigEndianBitFields() {
        Struct d = demo();
        MemorySegment s = zeros(32);
        d.set(s, 16, d.field("a").orElseThrow(), 0xab);
        d.set(s, 16, d.field("flag").orElseThrow(), 1);
        d.set(s, 16, d.field("pow").orElseThrow(), 0x1234);
        assertEquals(0xab801234, s.get(BE, 16));
        assertEquals(0xab, d.get(s, 16, d.field("a").orElseThrow()));
        assertEquals(1, d.get(s, 16, d.field("flag").orElseThrow()));
        assertEquals(0x1234, d.get(s, 16, d.field("pow").orElseThrow()));
        // writing one field leaves its neighbours alone
        d.set(s, 16, d.field("flag").orElseThrow(), 0);
        assertEquals(0xab001234, s.get(BE, 16));
        assertEquals(0, s.get(BE, 0), "nothing written before the offset");
    }

    @Test
    void sixtyFourBitFieldsUseTwoBigEndianDwords() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        Field wide = d.field("wide").orElseThrow();
        d.set(s, 0, wide, 0x0102030405060708L);
        assertEquals(0x01020304, s.get(BE, 4));
        assertEquals(0x05060708, s.get(BE, 8));
        assertEquals(0x0102030405060708L, d.get(s, 0, wide));
        d.set(s, 0, wide, -1L);
        assertEquals(-1L, d.get(s, 0, wide));
    }

    @Test
    void littleEndianStructsReadLittleEndianDwords() {
        Struct d = demo(ByteOrder.LITTLE_ENDIAN, List.of());
        MemorySegment s = zeros(16);
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, 0xab801234);
        assertEquals(0xab, d.get(s, 0, d.field("a").orElseThrow()));
        assertEquals(0x1234, d.get(s, 0, d.field("pow").orElseThrow()));
        d.set(s, 0, d.field("a").orElseThrow(), 0x12);
        assertEquals(0x12, s.get(ValueLayout.JAVA_BYTE, 3), "the MSB of a little-endian dword is its last byte");
    }

    @Test
    void setRejectsValuesThatDoNotFit() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.set(s, 0, d.field("flag").orElseThrow(), 2));
        assertEquals("demo.flag: value 2 (0x2) does not fit in 1 bit (0..1)", e.getMessage());
        assertEquals(0, s.get(BE, 0), "nothing written");
    }

    @Test
    void getAndSetRejectTheWrongKind() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.get(s, 0, d.field("arr").orElseThrow()));
        assertEquals("t.demo.arr is BITS_ARRAY, not BITS", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.set(s, 0, d.field("arr").orElseThrow(), 1));
        assertThrows(IllegalArgumentException.class, () -> d.element(s, 0, d.field("a").orElseThrow(), 0));
    }

    @Test
    void elementsOfFixedAndFlexibleArrays() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        s.set(BE, 12, 0x11223344);
        Field arr = d.field("arr").orElseThrow();
        assertEquals(0x11, d.element(s, 0, arr, 0));
        assertEquals(0x44, d.element(s, 0, arr, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> d.element(s, 0, arr, 4));

        Field flex = field("pas", Kind.BITS_ARRAY, 32, 0, 32, 0, true, false, Access.IN, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.empty(), "", "bytes 0x04.. (flexible array)");
        Struct f = new Struct("t.flex", false, 4, ByteOrder.BIG_ENDIAN, List.of(bits("n", 0, 32, Constraints.NONE, "dword 0x00 [31:0]"), flex),
                List.of(), "", "", "");
        assertEquals(0x11223344, f.element(s, 0, flex, 2), "a flexible array reads past the structure's size");
    }

    // ---- validate ---------------------------------------------------------------------------------

    @Test
    void validateReportsRangesPowersOfTwoAndMustBeZero() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        assertEquals(List.of(
                "demo.a (dword 0x00 [31:24]): 0 is out of range 1..100",
                "demo.pow (dword 0x00 [15:0]): 0 is not a power of two"), d.validate(s, 0, c -> true));

        s.set(BE, 0, 0x05_7f_0008); // a = 5, reserved = 0x7f, pow = 8
        s.set(BE, 12, 0x0000000a);  // arr[3] = 10
        assertEquals(List.of(
                "demo.reserved_at_9 (dword 0x00 [22:16]): must be zero, is 0x7f",
                "demo.arr[3] (dword 0x0c [31:0]): 10 is out of range 0..9"), d.validate(s, 0, c -> true));

        s.set(BE, 0, 0x05_00_0008);
        s.set(BE, 12, 0);
        assertEquals(List.of(), d.validate(s, 0, c -> true));
        s.set(BE, 0, 0x05_00_0006);
        assertEquals(List.of("demo.pow (dword 0x00 [15:0]): 6 is not a power of two"), d.validate(s, 0, c -> true));
    }

    @Test
    void validateComparesRangesUnsigned() {
        Field big = bits("big", 0, 64, new Constraints(OptionalLong.empty(), OptionalLong.of(-2L), false, false, false), "bytes 0x00..0x07");
        Struct d = new Struct("t.big", false, 8, ByteOrder.BIG_ENDIAN, List.of(big), List.of(), "", "", "");
        MemorySegment s = zeros(8);
        d.set(s, 0, big, -2L);
        assertEquals(List.of(), d.validate(s, 0, c -> true));
        d.set(s, 0, big, -1L);
        assertEquals(List.of("big.big (bytes 0x00..0x07): 18446744073709551615 is out of range 0..18446744073709551614"),
                d.validate(s, 0, c -> true));
    }

    @Test
    void validateChecksCapabilityGates() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        s.set(BE, 0, 0x05_80_0008); // flag set
        List<String> asked = new ArrayList<>();
        assertEquals(List.of("demo.flag (dword 0x00 [23]): non-zero, but capability caps.flag_ok is not present"),
                d.validate(s, 0, c -> asked.add(c) && false));
        assertEquals(List.of("caps.flag_ok"), asked);
        assertEquals(List.of(), d.validate(s, 0, "caps.flag_ok"::equals));
        assertThrows(NullPointerException.class, () -> d.validate(s, 0, null));
    }

    @Test
    void validateEvaluatesRules() {
        Rule aBelowPow = new Rule("a_below_pow", "a <= pow", "a may not exceed pow", "t.prm:9",
                (s, o) -> (s.get(BE, o) >>> 24) <= (s.get(BE, o) & 0xffff));
        Rule divides = new Rule("divides", "pow % arr[0] == 0", "arr[0] divides pow", "t.prm:10",
                (s, o) -> PrmLayout.rem(s.get(BE, o) & 0xffff, s.get(BE, o + 12) >>> 24) == 0);
        Struct d = demo(ByteOrder.BIG_ENDIAN, List.of(aBelowPow, divides));
        MemorySegment s = zeros(16);
        s.set(BE, 0, 0x05_00_0008);
        s.set(BE, 12, 0x02_000000);
        assertEquals(List.of(), d.validate(s, 0, c -> true));
        s.set(BE, 0, 0x09_00_0008);
        s.set(BE, 12, 0);
        assertEquals(List.of(
                "demo: rule a_below_pow violated: a may not exceed pow [a <= pow]",
                "demo: rule divides cannot be evaluated (division by zero): pow % arr[0] == 0"), d.validate(s, 0, c -> true));
    }

    /** outer: kind:8, pad:24, in (a demo at byte 4), two demos at byte 20 (array) */
    private static Struct outer() {
        Struct inner = demo();
        return new Struct("t.outer", false, 52, ByteOrder.BIG_ENDIAN, List.of(
                bits("kind", 0, 8, Constraints.NONE, "dword 0x00 [31:24]"),
                field("reserved_at_8", Kind.BITS, 8, 24, 24, 1, false, true, Access.RW, null, Constraints.MBZ, "", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x00 [23:0]"),
                field("in", Kind.STRUCT, 32, 128, 128, 1, false, false, Access.RW, null, Constraints.NONE, "", "",
                        Optional.empty(), Optional.of(inner), "t.demo", "bytes 0x04..0x13"),
                field("many", Kind.STRUCT_ARRAY, 160, 256, 128, 2, false, false, Access.RW, null, Constraints.NONE, "", "",
                        Optional.empty(), Optional.of(inner), "t.demo", "bytes 0x14..0x33")),
                List.of(), "", "", "");
    }

    @Test
    void validateDescendsIntoNestedStructuresAndArrays() {
        Struct o = outer();
        MemorySegment s = zeros(52);
        s.set(BE, 4, 0x05_00_0008);
        s.set(BE, 20, 0x05_00_0008);
        s.set(BE, 36, 0x00_00_0008);
        assertEquals(List.of("outer.many[1].a (dword 0x00 [31:24]): 0 is out of range 1..100"), o.validate(s, 0, c -> true));
    }

    /** An inline tagged union: kind selects alternative "narrow" (0) or "full" (1) of the dword at 0x04. */
    private static Struct inlineUnion() {
        Optional<Variant> narrow = Optional.of(new Variant("union_at_20", "narrow", "kind", OptionalLong.of(0)));
        Optional<Variant> full = Optional.of(new Variant("union_at_20", "full", "kind", OptionalLong.of(1)));
        return new Struct("t.tagged", false, 8, ByteOrder.BIG_ENDIAN, List.of(
                bits("kind", 0, 32, Constraints.NONE, "dword 0x00 [31:0]"),
                field("small", Kind.BITS, 32, 4, 4, 1, false, false, Access.RW, null, range(0, 3), "", "", narrow, Optional.empty(), "",
                        "dword 0x04 [31:28]"),
                field("big", Kind.BITS, 32, 32, 32, 1, false, false, Access.RW, null, range(0x10000000, 0xffffffffL), "", "", full,
                        Optional.empty(), "", "dword 0x04 [31:0]")),
                List.of(), "", "", "");
    }

    @Test
    void validateChecksOnlyTheSelectedAlternativeOfATaggedUnion() {
        Struct t = inlineUnion();
        MemorySegment s = zeros(8);
        s.set(BE, 4, 0xf0000000);
        assertEquals(List.of("tagged.small (dword 0x04 [31:28]): 15 is out of range 0..3"), t.validate(s, 0, c -> true));
        s.set(BE, 0, 1);
        assertEquals(List.of(), t.validate(s, 0, c -> true));
        s.set(BE, 4, 0x00000001);
        assertEquals(List.of("tagged.big (dword 0x04 [31:0]): 1 is out of range 268435456..4294967295"), t.validate(s, 0, c -> true));
        s.set(BE, 0, 2);
        assertEquals(List.of(), t.validate(s, 0, c -> true), "no alternative selected, none checked");
    }

    /** A union declaration chosen by a field of the enclosing structure, with reserved padding. */
    private static Struct declaredUnion() {
        Struct u = new Struct("t.u", true, 4, ByteOrder.BIG_ENDIAN, List.of(
                field("x", Kind.BITS, 0, 8, 8, 1, false, false, Access.RW, null, range(0, 1), "", "",
                        Optional.of(new Variant("u", "x", "", OptionalLong.of(0))), Optional.empty(), "", "dword 0x00 [31:24]"),
                field("y", Kind.BITS, 0, 16, 16, 1, false, false, Access.RW, null, range(0, 2), "", "",
                        Optional.of(new Variant("u", "y", "", OptionalLong.of(1))), Optional.empty(), "", "dword 0x00 [31:16]"),
                field("reserved_at_10", Kind.BITS, 16, 16, 16, 1, false, true, Access.RW, null, Constraints.MBZ, "", "",
                        Optional.empty(), Optional.empty(), "", "dword 0x00 [15:0]")),
                List.of(), "", "", "");
        return new Struct("t.holder", false, 8, ByteOrder.BIG_ENDIAN, List.of(
                bits("sel", 0, 32, Constraints.NONE, "dword 0x00 [31:0]"),
                field("u", Kind.STRUCT, 32, 32, 32, 1, false, false, Access.RW, null, Constraints.NONE, "", "sel",
                        Optional.empty(), Optional.of(u), "t.u", "dword 0x04 [31:0]")),
                List.of(), "", "", "");
    }

    @Test
    void validateFollowsTheEnclosingSelectorIntoAUnionDeclaration() {
        Struct h = declaredUnion();
        MemorySegment s = zeros(8);
        s.set(BE, 4, 0x0202ffff); // x = 2 (bad for x), y = 0x0202 (bad for y), padding set (never checked in a union)
        assertEquals(List.of("holder.u.x (dword 0x00 [31:24]): 2 is out of range 0..1"), h.validate(s, 0, c -> true));
        s.set(BE, 0, 1);
        assertEquals(List.of("holder.u.y (dword 0x00 [31:16]): 514 is out of range 0..2"), h.validate(s, 0, c -> true));
        s.set(BE, 0, 7);
        assertEquals(List.of(), h.validate(s, 0, c -> true));
    }

    @Test
    void validateChecksReservedBytesAndGatedNestedStructures() {
        Field bytes = field("reserved_at_0", Kind.BYTES, 0, 64, 64, 1, false, true, Access.RW, null, Constraints.MBZ, "", "",
                Optional.empty(), Optional.empty(), "", "bytes 0x00..0x07");
        Field gated = field("opt", Kind.STRUCT, 64, 32, 32, 1, false, false, Access.RW, null, Constraints.NONE, "caps.opt", "",
                Optional.empty(), Optional.empty(), "t.opaque", "dword 0x08 [31:0]");
        Struct d = new Struct("t.b", false, 12, ByteOrder.BIG_ENDIAN, List.of(bytes, gated), List.of(), "", "", "");
        MemorySegment s = zeros(12);
        assertEquals(List.of(), d.validate(s, 0, c -> false));
        s.set(ValueLayout.JAVA_BYTE, 7, (byte) 1);
        s.set(ValueLayout.JAVA_BYTE, 8, (byte) 1);
        assertEquals(List.of(
                "b.reserved_at_0 (bytes 0x00..0x07): must be zero, is not",
                "b.opt (dword 0x08 [31:0]): non-zero, but capability caps.opt is not present"), d.validate(s, 0, c -> false));
    }

    @Test
    void aTaggedAlternativeWhoseSelectorIsNoBitFieldIsShownButNotChecked() {
        Optional<Variant> lost = Optional.of(new Variant("union_at_0", "a", "no_such_field", OptionalLong.of(0)));
        Struct d = new Struct("t.lost", false, 4, ByteOrder.BIG_ENDIAN, List.of(
                field("v", Kind.BITS, 0, 8, 8, 1, false, false, Access.RW, null, range(0, 1), "", "", lost, Optional.empty(), "",
                        "dword 0x00 [31:24]")), List.of(), "", "", "");
        MemorySegment s = zeros(4);
        s.set(BE, 0, 0x07000000);
        assertEquals(List.of(), d.validate(s, 0, c -> true), "which alternative is meant is unknown");
        assertTrue(d.dump(s, 0).contains("v = 0x7  (union_at_0: a)"), d.dump(s, 0));

        Field holder = field("u", Kind.STRUCT, 0, 32, 32, 1, false, false, Access.RW, null, Constraints.NONE, "", "missing",
                Optional.empty(), Optional.of(d), "t.lost", "dword 0x00 [31:0]");
        Struct outer = new Struct("t.h", false, 4, ByteOrder.BIG_ENDIAN, List.of(holder), List.of(), "", "", "");
        assertEquals(List.of(), outer.validate(s, 0, c -> true), "a selector naming no field gives no tag");
    }

    // ---- dump -------------------------------------------------------------------------------------

    /** A joined field's whole value follows its parts, named and with the bits each part holds, in nested structures too. */
    @Test
    void dumpShowsEachNonZeroJoinAfterItsParts() {
        Join mode = new Join("mode", 5, List.of(new JoinPart("mode_4_2", 2), new JoinPart("mode_1_0", 0)), "t.mode", 0x1f,
                v -> v == 5 ? "MEMIC" : null, "", "t.prm:3");
        Struct inner = new Struct("t.inner", false, 4, ByteOrder.BIG_ENDIAN, List.of(
                bits("mode_4_2", 0, 3, Constraints.NONE, "dword 0x00 [31:29]"),
                bits("gap", 3, 27, Constraints.NONE, "dword 0x00 [28:2]"),
                bits("mode_1_0", 30, 2, Constraints.NONE, "dword 0x00 [1:0]")), List.of(), "", "", "", List.of(mode));
        MemorySegment s = zeros(8);
        s.set(BE, 4, 0x2000_0001); // mode_4_2 = 1, mode_1_0 = 1: 0b00101
        assertEquals("""
                inner (4 bytes)
                  dword 0x00 [31:29]   mode_4_2 = 0x1
                  dword 0x00 [1:0]     mode_1_0 = 0x1
                  joined               mode = 0x5 MEMIC  (mode_4_2 [4:2], mode_1_0 [1:0])
                """, inner.dump(s, 4));
        Field holder = field("ctx", Kind.STRUCT, 32, 32, 32, 1, false, false, Access.RW, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.of(inner), "t.inner", "dword 0x01 [31:0]");
        Struct outer = new Struct("t.outer", false, 8, ByteOrder.BIG_ENDIAN, List.of(bits("x", 0, 32, Constraints.NONE, "dword 0x00"), holder),
                List.of(), "", "", "");
        assertTrue(outer.dump(s, 0).endsWith("    joined               mode = 0x5 MEMIC  (mode_4_2 [4:2], mode_1_0 [1:0])\n"), outer.dump(s, 0));
        s.set(BE, 4, 0x0000_0002); // mode_1_0 = 2 only: a value the enum does not name
        assertTrue(inner.dump(s, 4).endsWith("  joined               mode = 0x2  (mode_4_2 [4:2], mode_1_0 [1:0])\n"), inner.dump(s, 4));
        assertFalse(inner.dump(zeros(4), 0).contains("joined"), "a zero join is not shown, like a zero field");
        Join unnamed = new Join("m", 5, mode.parts(), "", 0x1f, "", "");
        assertNull(unnamed.nameOf(5), "code generated before joins named their values");
        assertEquals("lo [0]", new Join("m", 1, List.of(new JoinPart("lo", 0)), "", 1, "", "").describeParts());
    }

    @Test
    void dumpOfAllZero() {
        assertEquals("demo (16 bytes)\n  (all zero)\n", demo().dump(zeros(16), 0));
    }

    @Test
    void dumpOfShortOrMisplacedBytesDecodesWhatThereIsAndNeverThrows() {
        Struct d = demo();
        MemorySegment s = zeros(6); // a short command input: 6 of 16 bytes
        s.set(BE, 0, 0x05_00_0000);
        assertEquals("""
                demo (16 bytes)
                  dword 0x00 [31:24]   a = 0x5 FIVE
                  (only 6 of 16 bytes given; the rest read as 0)
                """, d.dump(s, 0));
        assertEquals("demo (16 bytes)\n  (all zero)\n  (only 0 of 16 bytes given; the rest read as 0)\n", d.dump(zeros(0), 0));
        assertTrue(d.dump(s, 7).endsWith("(only 0 of 16 bytes given; the rest read as 0)\n"), "offset past the end");
        assertTrue(d.dump(s, -4).endsWith("(only 0 of 16 bytes given; the rest read as 0)\n"), "negative offset");
        assertTrue(d.dump(s, 3).contains("(only 3 of 16 bytes given"), "a slice that ends mid-dword");
        // every length and offset, garbage included: never an exception
        java.util.Random r = new java.util.Random(1);
        for (int len = 0; len <= 40; len++) {
            MemorySegment g = zeros(len);
            for (int i = 0; i < len; i++) g.set(ValueLayout.JAVA_BYTE, i, (byte) r.nextInt());
            for (int off = -1; off <= len + 1; off++) {
                for (Struct st : List.of(d, outer(), inlineUnion())) assertTrue(st.dump(g, off).startsWith(st.simpleName()));
            }
        }
    }

    @Test
    void dumpShowsNonZeroMembersWithPositionsNamesAndFlags() {
        Struct d = demo();
        MemorySegment s = zeros(16);
        s.set(BE, 0, 0x05_01_0000); // a = FIVE, reserved bit set
        s.set(BE, 8, 0x2a);          // wide = 0x2a
        s.set(BE, 12, 0x00ff0000);   // arr[1]
        assertEquals("""
                demo (16 bytes)
                  dword 0x00 [31:24]   a = 0x5 FIVE
                  dword 0x00 [22:16]   reserved_at_9 = 0x1  !! reserved bits set
                  bytes 0x04..0x0b     wide = 0x2a
                  dword 0x0c [23:16]   arr[1] = 0xff
                """, d.dump(s, 0));
    }

    @Test
    void dumpDescendsAndShowsEveryUnionAlternative() {
        MemorySegment s = zeros(52);
        s.set(BE, 4, 0x05_00_0000);
        s.set(BE, 36, 0x00_00_0004);
        assertEquals("""
                outer (52 bytes)
                  bytes 0x04..0x13     in : t.demo
                    dword 0x00 [31:24]   a = 0x5 FIVE
                  bytes 0x24..0x33     many[1] : t.demo
                    dword 0x00 [15:0]    pow = 0x4
                """, outer().dump(s, 0));

        MemorySegment t = zeros(8);
        t.set(BE, 4, 0x10000001);
        assertEquals("""
                tagged (8 bytes)
                  dword 0x04 [31:28]   small = 0x1  (union_at_20: narrow)
                """, inlineUnion().dump(t, 0), "kind 0 selects narrow");
        t.set(BE, 0, 1);
        assertEquals("""
                tagged (8 bytes)
                  dword 0x00 [31:0]    kind = 0x1
                  dword 0x04 [31:0]    big = 0x10000001  (union_at_20: full)
                """, inlineUnion().dump(t, 0));

        MemorySegment h = zeros(8);
        h.set(BE, 4, 0x01020000);
        assertEquals("""
                holder (8 bytes)
                  dword 0x04 [31:0]    u : t.u
                    dword 0x00 [31:24]   x = 0x1  (u: x)
                """, declaredUnion().dump(h, 0), "sel 0 chooses x");
        h.set(BE, 0, 1);
        assertEquals("""
                holder (8 bytes)
                  dword 0x00 [31:0]    sel = 0x1
                  dword 0x04 [31:0]    u : t.u
                    dword 0x00 [31:16]   y = 0x102  (u: y)
                """, declaredUnion().dump(h, 0), "sel 1 chooses y");
    }

    @Test
    void dumpShowsBytesOpaqueStructuresAndFlexibleArraysAsFarAsTheSegmentGoes() {
        Field bytes = field("key", Kind.BYTES, 0, 64, 64, 1, false, false, Access.RW, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.empty(), "", "bytes 0x00..0x07");
        Field opaque = field("opt", Kind.STRUCT, 64, 32, 32, 1, false, false, Access.RW, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.empty(), "t.opaque", "dword 0x08 [31:0]");
        Field flex = field("pas", Kind.BITS_ARRAY, 96, 0, 32, 0, true, false, Access.IN, null, Constraints.NONE, "", "",
                Optional.empty(), Optional.empty(), "", "bytes 0x0c.. (flexible array)");
        Struct d = new Struct("t.b", false, 12, ByteOrder.BIG_ENDIAN, List.of(bytes, opaque, flex), List.of(), "", "", "");
        MemorySegment s = zeros(20);
        s.set(ValueLayout.JAVA_BYTE, 1, (byte) 0xab);
        s.set(ValueLayout.JAVA_BYTE, 11, (byte) 0x07);
        s.set(BE, 16, 9);
        assertEquals("""
                b (12 bytes)
                  bytes 0x00..0x07     key = 00 ab 00 00 00 00 00 00
                  dword 0x08 [31:0]    opt : t.opaque = 00 00 00 07
                  dword 0x10 [31:0]    pas[1] = 0x9
                """, d.dump(s, 0));

        Struct many = new Struct("t.many", false, 0, ByteOrder.BIG_ENDIAN, List.of(
                field("e", Kind.BITS_ARRAY, 0, 0, 8, 0, true, false, Access.IN, null, Constraints.NONE, "", "",
                        Optional.empty(), Optional.empty(), "", "bytes 0x00.. (flexible array)")), List.of(), "", "", "");
        MemorySegment m = zeros(100);
        m.fill((byte) 1);
        long lines = many.dump(m, 0).lines().filter(l -> l.contains("e[")).count();
        assertEquals(PrmLayout.DUMP_FLEX_LIMIT, lines);
        MemorySegment odd = zeros(99);
        odd.fill((byte) 1);
        String tail = many.dump(odd, 60);
        assertTrue(tail.contains("e[35] = 0x1"), tail);
        assertFalse(tail.contains("e[36]"), "a segment ending mid-dword: only whole dwords are read");
    }

    @Test
    void dumpOfAUnionSaysSo() {
        MemorySegment s = zeros(4);
        assertTrue(declaredUnion().field("u").orElseThrow().target().orElseThrow().dump(s, 0).startsWith("u (union, 4 bytes)\n"));
    }

    // ---- helpers ----------------------------------------------------------------------------------

    @Test
    void positions() {
        assertEquals("dword 0x04 [23:16]", PrmLayout.position(40, 8));
        assertEquals("dword 0x00 [31]", PrmLayout.position(0, 1));
        assertEquals("dword 0x0c [31:0]", PrmLayout.position(96, 32));
        assertEquals("bytes 0x08..0x0f", PrmLayout.position(64, 64));
        assertEquals("bytes 0x03..0x04", PrmLayout.position(28, 8), "crossing a dword boundary");
    }

    @Test
    void padAlignsToAColumnAndAlwaysSeparates() {
        assertEquals("dword 0x00 [31]      ", PrmLayout.pad("dword 0x00 [31]"));
        assertEquals(21, PrmLayout.pad("x").length());
        String longer = "bytes 0x100..0x1ff000000";
        assertEquals(longer + " ", PrmLayout.pad(longer));
    }

    @Test
    void masks() {
        assertEquals(1L, PrmLayout.mask(1));
        assertEquals(0xffffffffL, PrmLayout.mask(32));
        assertEquals(-1L, PrmLayout.mask(64));
    }

    @Test
    void zeroTestAndHexFormatting() {
        MemorySegment s = zeros(80);
        assertTrue(PrmLayout.isZero(s, 0, 80));
        s.set(ValueLayout.JAVA_BYTE, 79, (byte) 0x5a);
        assertFalse(PrmLayout.isZero(s, 0, 80));
        assertTrue(PrmLayout.isZero(s, 0, 79));
        assertEquals("0xffffffffffffffff", PrmLayout.hex(-1));
        assertEquals("0x0", PrmLayout.hex(0));
        assertEquals("00 00 5a", PrmLayout.hexBytes(s, 77, 3));
        String all = PrmLayout.hexBytes(s, 0, 80);
        assertTrue(all.endsWith(" ..."), all);
        assertEquals(64 * 3 - 1 + 4, all.length(), "64 bytes shown, then ' ...'");
    }

    @Test
    void exceptionsOfTheAccessors() {
        assertEquals("cqc.log_sz: value 32 (0x20) does not fit in 5 bits (0..31)", PrmLayout.outOfRange("cqc", "log_sz", 5, 32).getMessage());
        assertEquals("x.y: value -1 (0xffffffffffffffff) does not fit in 63 bits (0..9223372036854775807)",
                PrmLayout.outOfRange("x", "y", 63, -1).getMessage());
        assertEquals("eth.smac: 7 bytes do not fit in 6", PrmLayout.tooLong("eth", "smac", 6, 7).getMessage());
        assertEquals("eth.smac: destination of 4 bytes is shorter than 6", PrmLayout.tooShort("eth", "smac", 6, 4).getMessage());
    }

    @Test
    void ruleArithmeticIsUnsigned() {
        assertEquals(Long.MAX_VALUE, PrmLayout.div(-1L, 2));
        assertEquals(1L, PrmLayout.rem(-1L, 2));
        assertEquals(0L, PrmLayout.div(1, -1L), "-1 is the largest unsigned value");
        assertEquals("division by zero", assertThrows(ArithmeticException.class, () -> PrmLayout.div(1, 0)).getMessage());
        assertEquals("division by zero", assertThrows(ArithmeticException.class, () -> PrmLayout.rem(1, 0)).getMessage());
    }

    @Test
    void shiftsOfSixtyFourOrMoreShiftEverythingOut() {
        assertEquals(1L << 63, PrmLayout.shl(1, 63));
        assertEquals(0L, PrmLayout.shl(1, 64));
        assertEquals(0L, PrmLayout.shl(-1L, 65));
        assertEquals(0L, PrmLayout.shl(1, -1L), "counts are unsigned");
        assertEquals(1L, PrmLayout.shr(1L << 63, 63));
        assertEquals(0L, PrmLayout.shr(-1L, 64));
        assertEquals(0L, PrmLayout.shr(-1L, -1L));
        assertEquals(Long.MAX_VALUE, PrmLayout.shr(-1L, 1), "logical, not arithmetic");
    }
}
