package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Property;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random layouts through the whole pipeline: IR -> generated Java -> javac in memory -> accessors
 * on a heap segment. Every written bit is compared with a reference computed here the way
 * MLX5_SET does it (dword = bit / 32, shift = 32 - width - (bit & 31); fields over 32 bits as a
 * big-endian 64-bit word), independently of the generator's code.
 */
class LayoutRoundTripIT {

    /** One generated member: a scalar (bit field or array element), a byte array, or reserved space. */
    record Slot(String name, long bit, int width, boolean reserved, int index, int bytes) {
        boolean isBytes() {
            return bytes > 0;
        }
    }

    /** A random layout plus everything the test needs to know about it. */
    record Layout(StructLayout struct, List<Slot> slots, String ruleField, long ruleLimit) {
        boolean le() {
            return struct.byteOrder() == ByteOrder.LITTLE_ENDIAN;
        }

        /** The layout as a failure message shows it: one member per line. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder().append(struct.sizeBytes()).append(" bytes, ").append(le() ? "little" : "big")
                    .append("-endian, rule ").append(ruleField).append(" <= 0x").append(Long.toHexString(ruleLimit)).append('\n');
            for (Member m : struct.members()) {
                sb.append("bit ").append(m.bitOffset()).append(' ').append(m.name()).append(" : ").append(m.type())
                        .append(m.reserved() ? " (reserved)" : "").append('\n');
            }
            return sb.toString();
        }
    }

    enum Kind { FIELD, RESERVED, WIDE, BYTES, ARRAY }

    record Piece(Kind kind, int width, int count) {}

    /**
     * 1 to 40 pieces of any kind (mostly few, so most non-big layouts get a writer); widths 1..64 with
     * 1, 31, 32, 33, 63 and 64 as edge cases (they give field widths 1 and 32, wide widths 33 and 64);
     * little-endian about one time in five; a rule limit from any long, edge values included; big or not.
     */
    static Layout layouts(Property.Gen g) {
        int n = g.size(1, 40);
        List<Piece> pieces = new ArrayList<>();
        for (int i = 0; i < n; i++) pieces.add(new Piece(g.oneOf(Kind.values()), g.between(1, 64, 31, 32, 33), g.between(1, 6)));
        return build(pieces, g.between(0, 4), g.anyLong(), g.random().nextBoolean());
    }

    /** {@code big} grows the layout past the writer's size limit, so both sides of it are always exercised. */
    static Layout build(List<Piece> pieces, int orderDie, long ruleSeed, boolean big) {
        boolean le = orderDie == 0;
        List<Member> members = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        long[] cursor = {0};
        int[] n = {0};
        for (Piece p : pieces) {
            long pos = cursor[0] & 31;
            switch (p.kind()) {
                case FIELD, RESERVED -> {
                    int w = (int) Math.min(1 + (p.width() - 1) % 32, 32 - pos);
                    boolean res = p.kind() == Kind.RESERVED;
                    add(members, slots, res ? reservedName(cursor[0]) : "f" + n[0]++, cursor, new MemberType.Bits(w), res);
                }
                case WIDE -> {
                    pad(members, slots, cursor, 32);
                    add(members, slots, "f" + n[0]++, cursor, new MemberType.Bits(33 + (p.width() - 1) % 32), false);
                }
                case BYTES -> {
                    if (le) continue; // byte strings are byte-order free; keep LE layouts to dword-valued members
                    pad(members, slots, cursor, 8);
                    add(members, slots, "f" + n[0]++, cursor, new MemberType.Bytes(1 + p.width() % 16), false);
                }
                case ARRAY -> {
                    int e = new int[] {1, 2, 4, 8, 16}[p.width() % 5];
                    pad(members, slots, cursor, e);
                    add(members, slots, "f" + n[0]++, cursor, new MemberType.Array(new MemberType.Bits(e), p.count(), false), false);
                }
            }
        }
        pad(members, slots, cursor, 32);
        add(members, slots, "f" + n[0]++, cursor, new MemberType.Bits(64), false);
        while (big && cursor[0] <= WriterEmitter.MAX_BYTES * 8) {
            add(members, slots, "f" + n[0]++, cursor, new MemberType.Bits(33 + (int) Math.floorMod(ruleSeed + cursor[0], 32)), false);
            pad(members, slots, cursor, 32);
        }
        Slot ruled = slots.stream().filter(s -> !s.reserved() && !s.isBytes() && s.index() < 0).findFirst().orElseThrow();
        long limit = ruled.width() == 64 ? ruleSeed : Math.floorMod(ruleSeed, 1L << ruled.width());
        Rule rule = new Rule("r0", new Expr.Binary(Expr.BinaryOp.LE, new Expr.FieldValue(ruled.name()), new Expr.Literal(limit, "LIMIT")),
                "stays at or below the limit", new SourceLocation("rand.prm", 99, 1));
        StructLayout s = new StructLayout(new QualifiedName("rnd", "rand_struct"), StructLayout.Kind.STRUCT, cursor[0] / 8,
                le ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN, members, List.of(rule), Doc.NONE, new SourceLocation("rand.prm", 1, 1));
        return new Layout(s, slots, ruled.name(), limit);
    }

    private static String reservedName(long bit) {
        return "reserved_at_" + Long.toHexString(bit);
    }

    private static void pad(List<Member> members, List<Slot> slots, long[] cursor, int align) {
        while (cursor[0] % align != 0) {
            long pos = cursor[0] & 31;
            long w = Math.min(align - cursor[0] % align, 32 - pos);
            add(members, slots, reservedName(cursor[0]), cursor, new MemberType.Bits((int) w), true);
        }
    }

    private static void add(List<Member> members, List<Slot> slots, String name, long[] cursor, MemberType type, boolean reserved) {
        long bit = cursor[0];
        members.add(new Member(name, bit, type, reserved, Access.RW, Optional.empty(), Optional.empty(),
                reserved ? Constraints.MBZ : Constraints.NONE, Optional.empty(), Optional.empty(), "", Doc.NONE,
                new SourceLocation("rand.prm", 2 + members.size(), 5)));
        if (type instanceof MemberType.Bits b) {
            slots.add(new Slot(name, bit, b.width(), reserved, -1, 0));
        } else if (type instanceof MemberType.Bytes by) {
            slots.add(new Slot(name, bit, 0, false, -1, by.length()));
        } else if (type instanceof MemberType.Array a) {
            int e = (int) a.element().bitWidth();
            for (int i = 0; i < a.count(); i++) slots.add(new Slot(name, bit + (long) i * e, e, false, i, 0));
        }
        cursor[0] += type.bitWidth();
    }

    // ---- the reference ----------------------------------------------------------------------

    static long mask(int w) {
        return w == 64 ? -1L : (1L << w) - 1;
    }

    /** Places every scalar value MLX5_SET-style into dword values, then lays the dwords out in the struct's byte order. */
    static byte[] reference(Layout l, long[] values, byte[][] bytes, int offset, int total) {
        int dwords = (int) (l.struct().sizeBytes() / 4);
        long[] dw = new long[dwords];
        for (int i = 0; i < l.slots().size(); i++) {
            Slot s = l.slots().get(i);
            if (s.isBytes()) continue;
            long v = values[i] & mask(s.width());
            int d = (int) (s.bit() / 32);
            if (s.width() <= 32) {
                int shift = 32 - s.width() - (int) (s.bit() & 31);
                dw[d] |= v << shift;
            } else {
                long be64 = v << (64 - s.width());
                dw[d] |= be64 >>> 32;
                dw[d + 1] |= be64 & 0xffffffffL;
            }
        }
        byte[] out = new byte[total];
        for (int d = 0; d < dwords; d++) {
            for (int k = 0; k < 4; k++) {
                int shift = l.le() ? 8 * k : 24 - 8 * k;
                out[offset + 4 * d + k] = (byte) (dw[d] >>> shift);
            }
        }
        for (int i = 0; i < l.slots().size(); i++) {
            Slot s = l.slots().get(i);
            if (s.isBytes()) System.arraycopy(bytes[i], 0, out, offset + (int) (s.bit() / 8), s.bytes());
        }
        return out;
    }

    static Object box(int width, long v) {
        if (width == 1) return v != 0;
        if (width <= 32) return (int) v;
        return v;
    }

    static long unbox(Object o) {
        if (o instanceof Boolean b) return b ? 1 : 0;
        if (o instanceof Integer i) return Integer.toUnsignedLong(i);
        return (Long) o;
    }

    // ---- the property -----------------------------------------------------------------------

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // an exception to the 5-minute default: 142 s measured on a loaded 2-core machine
    void everyBitLandsWhereTheReferencePutsIt() {
        int[] le = {0};
        int[] withWriter = {0};
        int tries = Property.check(60, g -> {
            Layout l = g.note("layout", layouts(g));
            everyBitLandsWhereTheReferencePutsIt(l, g.anyLong("valueSeed"));
            if (l.le()) le[0]++;
            if (l.struct().sizeBytes() <= WriterEmitter.MAX_BYTES) withWriter[0]++;
        });
        // both byte orders and both sides of the writer size limit must actually be exercised
        // (not checked on a shortened run, e.g. a replay with -Dprmkit.tries=1)
        if (tries >= 60) {
            assertTrue(le[0] > 0 && le[0] < tries, () -> le[0] + " of " + tries + " layouts little-endian");
            assertTrue(withWriter[0] > 0 && withWriter[0] < tries, () -> withWriter[0] + " of " + tries + " layouts small enough for a writer");
        }
    }

    private static void everyBitLandsWhereTheReferencePutsIt(Layout l, long valueSeed) {
        Loaded gen = Loaded.compile(new AccessorGenerator(GeneratorOptions.defaults()).generate(
                new LayoutModel(List.of(l.struct()), List.of(), List.of())), "rnd");
        String cls = "RandStruct";
        Random rnd = new Random(valueSeed);
        int n = l.slots().size();
        assertEquals(l.struct().sizeBytes(), gen.constant(cls, "SIZE"));
        for (int round = 0; round < 12; round++) {
            int offset = rnd.nextInt(8);
            int total = offset + (int) l.struct().sizeBytes() + rnd.nextInt(8);
            byte[] buf = new byte[total];
            Object seg = Loaded.segment(buf);
            long[] values = new long[n];
            byte[][] bytes = new byte[n][];
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) order.add(i);
            Collections.shuffle(order, rnd);

            // checked setters with in-range values; reserved bits are never written
            for (int i : order) {
                Slot s = l.slots().get(i);
                if (s.reserved()) continue;
                if (s.isBytes()) {
                    bytes[i] = new byte[s.bytes()];
                    rnd.nextBytes(bytes[i]);
                    gen.call(cls, s.name() + "$copyFrom", seg, (long) offset, bytes[i]);
                    continue;
                }
                values[i] = rnd.nextLong() & mask(s.width());
                if (s.index() < 0) gen.call(cls, s.name() + "$set", seg, (long) offset, box(s.width(), values[i]));
                else gen.call(cls, s.name() + "$set", seg, (long) offset, (long) s.index(), box(s.width(), values[i]));
            }
            for (int i = 0; i < n; i++) if (bytes[i] == null && l.slots().get(i).isBytes()) bytes[i] = new byte[l.slots().get(i).bytes()];
            assertArrayEquals(reference(l, values, bytes, offset, total), buf, "raw bytes after checked setters");

            // getters read back every value; reserved space has no accessors (the raw bytes above show it stayed zero)
            for (int i = 0; i < n; i++) {
                Slot s = l.slots().get(i);
                if (s.reserved()) {
                    assertTrue(!gen.hasMethod(cls, s.name()) && !gen.hasMethod(cls, s.name() + "$set"), s.name() + " has accessors");
                    continue;
                }
                if (s.isBytes()) {
                    byte[] copy = new byte[s.bytes()];
                    gen.call(cls, s.name() + "$copyTo", seg, (long) offset, copy);
                    assertArrayEquals(bytes[i], copy, s.name());
                    continue;
                }
                Object got = s.index() < 0 ? gen.call(cls, s.name(), seg, (long) offset) : gen.call(cls, s.name() + "$elem", seg, (long) offset, (long) s.index());
                assertEquals(values[i], unbox(got), s.name() + (s.index() < 0 ? "" : "[" + s.index() + "]"));
            }

            // the rule is reported exactly when it is broken; a clean struct is otherwise valid
            int ruled = indexOf(l, l.ruleField());
            boolean broken = Long.compareUnsigned(values[ruled], l.ruleLimit()) > 0;
            @SuppressWarnings("unchecked")
            List<String> problems = (List<String>) gen.call(cls, "validate", Loaded.segment(java.util.Arrays.copyOfRange(buf, offset, offset + (int) l.struct().sizeBytes())));
            assertEquals(broken ? List.of("rand_struct: rule r0 violated: stays at or below the limit [(" + l.ruleField() + " <= LIMIT)]") : List.of(), problems);

            // checked setters reject every value that does not fit, and write nothing
            byte[] before = buf.clone();
            for (int i = 0; i < n; i++) {
                Slot s = l.slots().get(i);
                if (s.reserved() || s.isBytes() || s.width() == 1 || s.width() == 32 || s.width() == 64) continue;
                long bad = badValue(s.width(), rnd);
                Object arg = box(s.width(), bad);
                String field = s.index() < 0 ? s.name() : s.name() + "[]";
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
                    if (s.index() < 0) gen.call(cls, s.name() + "$set", seg, (long) offset, arg);
                    else gen.call(cls, s.name() + "$set", seg, (long) offset, (long) s.index(), arg);
                }, field + " accepted " + arg);
                assertTrue(e.getMessage().startsWith("rand_struct." + field + ": value " + unboxSigned(arg) + " "), e.getMessage());
                assertTrue(e.getMessage().contains("does not fit in " + s.width() + " bits"), e.getMessage());
            }
            assertArrayEquals(before, buf, "a rejected value was written");

            // unchecked setters mask like MLX5_SET and touch no other bit
            for (int i : order) {
                Slot s = l.slots().get(i);
                if (s.reserved() || s.isBytes()) continue;
                long raw = rnd.nextLong();
                Object arg = box(s.width(), s.width() == 1 ? raw & 1 : raw);
                if (s.index() < 0) gen.call(cls, s.name() + "$setUnchecked", seg, (long) offset, arg);
                else gen.call(cls, s.name() + "$setUnchecked", seg, (long) offset, (long) s.index(), arg);
                values[i] = (s.width() == 1 ? raw & 1 : raw) & mask(s.width());
            }
            assertArrayEquals(reference(l, values, bytes, offset, total), buf, "raw bytes after unchecked setters");

            // the writer (small structures only) overwrites every byte: bit fields from its setters, the rest zero
            if (gen.hasMethod(cls, "writer")) {
                byte[] wbuf = new byte[total];
                java.util.Arrays.fill(wbuf, offset, offset + (int) l.struct().sizeBytes(), (byte) 0xa5);
                Object w = gen.call(cls, "writer", Loaded.segment(wbuf), (long) offset);
                long[] scalars = new long[n];
                for (int i : order) {
                    Slot s = l.slots().get(i);
                    if (s.reserved() || s.isBytes() || s.index() >= 0) continue;
                    scalars[i] = values[i];
                    // some fields get another value first: a setter must clear what an earlier call left in its bits
                    if (rnd.nextInt(3) == 0) Loaded.invoke(w, s.name(), box(s.width(), rnd.nextLong() & mask(s.width())));
                    Loaded.invoke(w, s.name(), box(s.width(), values[i]));
                }
                Loaded.invoke(w, "write");
                assertArrayEquals(reference(l, scalars, emptyBytes(l), offset, total), wbuf, "raw bytes after the writer");
                storeWritesWhatTheReferenceDoes(gen, cls, l, values, offset, total, rnd);
            } else {
                assertTrue(l.struct().sizeBytes() > WriterEmitter.MAX_BYTES, "no writer for a " + l.struct().sizeBytes() + "-byte structure");
                assertTrue(!gen.hasMethod(cls, "store") && !gen.hasMethod(cls, "storeUnchecked"), "a store without a writer");
            }

            // a non-zero reserved bit is reported by validate and flagged by dump
            List<Slot> reserved = l.slots().stream().filter(Slot::reserved).toList();
            if (!reserved.isEmpty()) {
                Slot r = reserved.get(rnd.nextInt(reserved.size()));
                int bitInField = rnd.nextInt(r.width());
                long[] only = new long[n];
                only[l.slots().indexOf(r)] = 1L << bitInField;
                byte[] flip = reference(l, only, emptyBytes(l), offset, total);
                for (int k = 0; k < total; k++) buf[k] ^= flip[k];
                @SuppressWarnings("unchecked")
                List<String> withReserved = (List<String>) gen.call(cls, "validate", Loaded.segment(java.util.Arrays.copyOfRange(buf, offset, total)));
                String expected = r.name() + " (";
                assertTrue(withReserved.stream().anyMatch(p -> p.startsWith("rand_struct." + expected) && p.contains("must be zero, is 0x" + Long.toHexString(1L << bitInField))),
                        withReserved.toString());
                String dump = (String) gen.call(cls, "dump", Loaded.segment(java.util.Arrays.copyOfRange(buf, offset, total)));
                assertTrue(dump.contains(r.name() + " = 0x" + Long.toHexString(1L << bitInField) + "  !! reserved bits set"), dump);
            }
        }
    }

    /**
     * The static store (small structures): its arguments are the bit fields in layout order; it writes
     * every byte, bit fields from the arguments and the rest zero; the checked form rejects a value that
     * does not fit, naming the field, and writes nothing; the unchecked one masks like MLX5_SET.
     */
    private static void storeWritesWhatTheReferenceDoes(Loaded gen, String cls, Layout l, long[] values, int offset, int total, Random rnd) {
        int n = l.slots().size();
        List<Integer> params = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Slot s = l.slots().get(i);
            if (!s.reserved() && !s.isBytes() && s.index() < 0) params.add(i);
        }
        byte[] sbuf = new byte[total];
        java.util.Arrays.fill(sbuf, (byte) 0xa5);
        long[] scalars = new long[n];
        Object[] boxed = new Object[params.size()];
        List<String> names = new ArrayList<>();
        for (int p = 0; p < params.size(); p++) {
            int i = params.get(p);
            scalars[i] = values[i];
            boxed[p] = box(l.slots().get(i).width(), values[i]);
            names.add(l.slots().get(i).name());
        }
        Object[] args = gen.storeArgs(Loaded.segment(sbuf), (long) offset, names, boxed);
        gen.call(cls, "store", args);
        byte[] expected = reference(l, scalars, emptyBytes(l), offset, total);
        for (int k = 0; k < total; k++) if (k < offset || k >= offset + l.struct().sizeBytes()) expected[k] = (byte) 0xa5;
        assertArrayEquals(expected, sbuf, "raw bytes after store");

        // out of range: the checked store throws naming the field and writes nothing
        for (int p = 0; p < params.size(); p++) {
            Slot s = l.slots().get(params.get(p));
            if (s.width() == 1 || s.width() == 32 || s.width() == 64) continue;
            Object[] bad = args.clone();
            byte[] untouched = new byte[total];
            bad[0] = Loaded.segment(untouched);
            bad[2 * p + 3] = box(s.width(), badValue(s.width(), rnd));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gen.call(cls, "store", bad), s.name());
            assertTrue(e.getMessage().startsWith("rand_struct." + s.name() + ": value " + unboxSigned(bad[2 * p + 3]) + " "), e.getMessage());
            assertArrayEquals(new byte[total], untouched, "a rejected store wrote");
        }

        // unchecked: any value, masked to its field
        for (int p = 0; p < params.size(); p++) {
            int i = params.get(p);
            Slot s = l.slots().get(i);
            long raw = rnd.nextLong();
            if (s.width() == 1) raw &= 1;
            args[2 * p + 3] = box(s.width(), raw);
            scalars[i] = raw & mask(s.width());
        }
        gen.call(cls, "storeUnchecked", args);
        expected = reference(l, scalars, emptyBytes(l), offset, total);
        for (int k = 0; k < total; k++) if (k < offset || k >= offset + l.struct().sizeBytes()) expected[k] = (byte) 0xa5;
        assertArrayEquals(expected, sbuf, "raw bytes after storeUnchecked");
    }

    private static long unboxSigned(Object o) {
        return o instanceof Integer i ? i : (Long) o;
    }

    private static byte[][] emptyBytes(Layout l) {
        byte[][] b = new byte[l.slots().size()][];
        for (int i = 0; i < b.length; i++) b[i] = new byte[l.slots().get(i).bytes()];
        return b;
    }

    private static int indexOf(Layout l, String name) {
        for (int i = 0; i < l.slots().size(); i++) if (l.slots().get(i).name().equals(name)) return i;
        throw new AssertionError(name);
    }

    /** A value that does not fit {@code w} bits: negative, or with a bit at or above {@code w} set. */
    private static long badValue(int w, Random rnd) {
        int top = w < 32 ? 32 : 64;
        if (rnd.nextBoolean()) return w < 32 ? (long) (int) (rnd.nextInt() | 0x80000000) : rnd.nextLong() | Long.MIN_VALUE;
        long high = 1L << (w + rnd.nextInt(top - w));
        long v = (rnd.nextLong() & mask(w)) | high;
        return w < 32 ? (int) v : v;
    }
}
