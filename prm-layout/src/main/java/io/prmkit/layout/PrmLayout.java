package io.prmkit.layout;

// java.lang types imported explicitly: a generated class of the same name in this package (a struct
// named "string" or "long") would otherwise shadow them.
import java.lang.ArithmeticException;
import java.lang.Byte;
import java.lang.FunctionalInterface;
import java.lang.IllegalArgumentException;
import java.lang.Integer;
import java.lang.Long;
import java.lang.Math;
import java.lang.Override;
import java.lang.RuntimeException;
import java.lang.Short;
import java.lang.String;
import java.lang.StringBuilder;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * Layout metadata for the generated structures of this package, as data: every structure class
 * exposes a {@code layout()} of type {@link Struct}, so tools can walk, read, validate and dump any
 * generated structure without knowing its class. Also holds the value layouts and the cold paths
 * (exception construction) shared by the accessors.
 *
 * <p>Copied by prmkit into every generated package, only its package line changed, so generated
 * code needs java.base only. The original is {@code io.prmkit.layout.PrmLayout} in prmkit's
 * prm-layout module, where it is compiled and tested: edit that one, never a copy.
 */
public final class PrmLayout {
    private PrmLayout() {}

    // The byte-order layouts of the accessors, public so code beside them (a driver's doorbells, a device
    // model's registers, a checksum) reads and writes raw words with the same layouts instead of its own.
    /** A byte. */
    public static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    /** A big-endian (network order, PRM) 16-bit word at any byte offset. */
    public static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** A big-endian (network order, PRM) dword at any byte offset. */
    public static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** A big-endian (network order, PRM) 64-bit word at any byte offset. */
    public static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /** A little-endian 16-bit word at any byte offset. */
    public static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** A little-endian dword at any byte offset. */
    public static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** A little-endian 64-bit word at any byte offset. */
    public static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Most elements of a flexible array that {@link Struct#dump} prints. */
    static final int DUMP_FLEX_LIMIT = 64;

    /** What a member holds. */
    public enum Kind {
        /** An unsigned bit field of 1..64 bits. */
        BITS,
        /** An opaque byte string. */
        BYTES,
        /** A nested structure or union. */
        STRUCT,
        /** An array of bit fields (possibly flexible). */
        BITS_ARRAY,
        /** An array of structures (possibly flexible). */
        STRUCT_ARRAY
    }

    /** Who writes a member; RO and OUT members have no setters. */
    public enum Access {
        RO, RW, WO, IN, OUT;

        public boolean writable() {
            return this == RW || this == WO || this == IN;
        }
    }

    /** Value constraints from the spec; reserved members are always {@code mustBeZero}. */
    public record Constraints(OptionalLong min, OptionalLong max, boolean powerOfTwo, boolean log2, boolean mustBeZero) {
        public static final Constraints NONE = new Constraints(OptionalLong.empty(), OptionalLong.empty(), false, false, false);
        public static final Constraints MBZ = new Constraints(OptionalLong.empty(), OptionalLong.empty(), false, false, true);

        public Constraints {
            Objects.requireNonNull(min, "min == null");
            Objects.requireNonNull(max, "max == null");
        }
    }

    /**
     * Where a member of an inline union sits: the union, the alternative, and for a tagged union the
     * selector field and the value choosing this alternative.
     */
    public record Variant(String union, String alternative, String selector, OptionalLong tag) {
        public Variant {
            Objects.requireNonNull(union, "union == null");
            Objects.requireNonNull(alternative, "alternative == null");
            Objects.requireNonNull(selector, "selector == null");
            Objects.requireNonNull(tag, "tag == null");
        }

        public boolean tagged() {
            return !selector.isEmpty() && tag.isPresent();
        }
    }

    /** A condition over the fields of a structure placed at {@code offset} in {@code s}. */
    @FunctionalInterface
    public interface Check {
        boolean holds(MemorySegment s, long offset);
    }

    /** A cross-field rule: {@code expression} must hold, else {@code message}. */
    public record Rule(String name, String expression, String message, String source, Check check) {
        public Rule {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(expression, "expression == null");
            Objects.requireNonNull(message, "message == null");
            Objects.requireNonNull(source, "source == null");
            Objects.requireNonNull(check, "check == null");
        }
    }

    /**
     * One member of a structure.
     *
     * @param name        the spec's name, verbatim (reserved space: {@code reserved_at_<hex>})
     * @param bitOffset   bit offset from the MSB of the structure's byte 0
     * @param bitWidth    total width in bits (0 for a flexible array)
     * @param elementBits width of one array element, or of the member itself when not an array
     * @param count       array element count (0 for a flexible array, 1 for a non-array)
     * @param valueName   names a value of the member (enum constant, or set flags), or null when unnamed
     * @param capability  capability bit gating the member, e.g. {@code cmd_hca_cap.swp}, or ""
     * @param selector    for a nested tagged union: the sibling field whose value selects its alternative, or ""
     * @param target      the nested structure's layout when generated in this package
     * @param targetName  the nested structure's spec name, or ""
     * @param position    PRM position, e.g. {@code dword 0x04 [23:16]}
     * @param source      spec {@code file:line}
     */
    public record Field(
            String name,
            Kind kind,
            long bitOffset,
            long bitWidth,
            long elementBits,
            int count,
            boolean flexible,
            boolean reserved,
            Access access,
            String enumType,
            String flagsType,
            LongFunction<String> valueName,
            Constraints constraints,
            String capability,
            String selector,
            Optional<Variant> variant,
            Optional<Struct> target,
            String targetName,
            String doc,
            String prmRef,
            String position,
            String source) {

        public Field {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(kind, "kind == null");
            Objects.requireNonNull(access, "access == null");
            Objects.requireNonNull(enumType, "enumType == null");
            Objects.requireNonNull(flagsType, "flagsType == null");
            Objects.requireNonNull(constraints, "constraints == null");
            Objects.requireNonNull(capability, "capability == null");
            Objects.requireNonNull(selector, "selector == null");
            Objects.requireNonNull(variant, "variant == null");
            Objects.requireNonNull(target, "target == null");
            Objects.requireNonNull(targetName, "targetName == null");
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(prmRef, "prmRef == null");
            Objects.requireNonNull(position, "position == null");
            Objects.requireNonNull(source, "source == null");
        }

        /** Byte offset of the member (exact for byte-aligned members). */
        public long byteOffset() {
            return bitOffset >>> 3;
        }

        /** Size of one array element (or of the member) in bytes, rounded up. */
        public long elementBytes() {
            return (elementBits + 7) >>> 3;
        }

        public boolean isArray() {
            return kind == Kind.BITS_ARRAY || kind == Kind.STRUCT_ARRAY;
        }

        /** The name of {@code value} under the bound enum or flag set, or null. */
        public String nameOf(long value) {
            return valueName == null ? null : valueName.apply(value);
        }
    }

    /**
     * A generated structure or union: its spec name, size, byte order, members (reserved space
     * included, in declaration order) and rules.
     */
    public record Struct(
            String name,
            boolean union,
            long sizeBytes,
            ByteOrder order,
            List<Field> fields,
            List<Rule> rules,
            String doc,
            String prmRef,
            String source,
            List<Join> joins) {

        public Struct {
            Objects.requireNonNull(name, "name == null");
            Objects.requireNonNull(order, "order == null");
            fields = List.copyOf(fields);
            rules = List.copyOf(rules);
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(prmRef, "prmRef == null");
            Objects.requireNonNull(source, "source == null");
            joins = List.copyOf(joins);
        }

        /** A structure without joined fields. */
        public Struct(String name, boolean union, long sizeBytes, ByteOrder order, List<Field> fields, List<Rule> rules, String doc,
                String prmRef, String source) {
            this(name, union, sizeBytes, order, fields, rules, doc, prmRef, source, List.of());
        }

        /** The joined field with this name, if any. */
        public Optional<Join> join(String joinName) {
            for (Join j : joins) {
                if (j.name().equals(joinName)) return Optional.of(j);
            }
            return Optional.empty();
        }

        /** Reads a joined field of the structure at {@code offset}: its parts put together. */
        public long get(MemorySegment s, long offset, Join j) {
            long v = 0;
            for (JoinPart p : j.parts()) v |= get(s, offset, part(j, p)) << p.shift();
            return v;
        }

        /**
         * Writes a joined field regardless of its parts' access (for tools and device models), rejecting a
         * value with bits no part holds (too wide, or below an aligned part); writes nothing then.
         */
        public void set(MemorySegment s, long offset, Join j, long value) {
            if ((value & ~j.mask()) != 0) throw outsideParts(simpleName(), j.name(), j.mask(), value);
            for (JoinPart p : j.parts()) {
                Field f = part(j, p);
                write(s, offset, f.bitOffset(), (int) f.bitWidth(), (value >>> p.shift()) & mask((int) f.bitWidth()));
            }
        }

        private Field part(Join j, JoinPart p) {
            return field(p.field()).orElseThrow(() -> new IllegalArgumentException(name + "." + j.name() + ": no part " + p.field()));
        }

        /** The name without the spec package, e.g. {@code wqe_ctrl_seg}. */
        public String simpleName() {
            int i = name.lastIndexOf('.');
            return i < 0 ? name : name.substring(i + 1);
        }

        /** The member with this name, if any. */
        public Optional<Field> field(String fieldName) {
            for (Field f : fields) {
                if (f.name().equals(fieldName)) return Optional.of(f);
            }
            return Optional.empty();
        }

        /** Reads a {@link Kind#BITS} member of the structure at {@code offset}, zero-extended. */
        public long get(MemorySegment s, long offset, Field f) {
            requireKind(f, Kind.BITS);
            return read(s, offset, f.bitOffset(), (int) f.bitWidth());
        }

        /** Reads element {@code index} of a {@link Kind#BITS_ARRAY} member, zero-extended. */
        public long element(MemorySegment s, long offset, Field f, long index) {
            requireKind(f, Kind.BITS_ARRAY);
            if (!f.flexible()) Objects.checkIndex(index, f.count());
            return read(s, offset, f.bitOffset() + index * f.elementBits(), (int) f.elementBits());
        }

        /**
         * Writes a {@link Kind#BITS} member regardless of its access mode (for tools that author
         * test data), rejecting a value that does not fit.
         */
        public void set(MemorySegment s, long offset, Field f, long value) {
            requireKind(f, Kind.BITS);
            int w = (int) f.bitWidth();
            if (w < 64 && (value >>> w) != 0) throw outOfRange(simpleName(), f.name(), w, value);
            write(s, offset, f.bitOffset(), w, value);
        }

        private void requireKind(Field f, Kind k) {
            if (f.kind() != k) throw new IllegalArgumentException(name + "." + f.name() + " is " + f.kind() + ", not " + k);
        }

        private ValueLayout.OfInt dwordLayout() {
            return order == ByteOrder.LITTLE_ENDIAN ? LE_INT : BE_INT;
        }

        private long read(MemorySegment s, long offset, long bit, int w) {
            long o = offset + ((bit >>> 5) << 2);
            if (w <= 32) {
                long dw = Integer.toUnsignedLong(s.get(dwordLayout(), o));
                return (dw >>> (32 - w - (int) (bit & 31))) & mask(w);
            }
            long v = (Integer.toUnsignedLong(s.get(dwordLayout(), o)) << 32) | Integer.toUnsignedLong(s.get(dwordLayout(), o + 4));
            return v >>> (64 - w);
        }

        private void write(MemorySegment s, long offset, long bit, int w, long value) {
            long o = offset + ((bit >>> 5) << 2);
            if (w <= 32) {
                int sh = 32 - w - (int) (bit & 31);
                int m = (int) (mask(w) << sh);
                int dw = s.get(dwordLayout(), o);
                s.set(dwordLayout(), o, (dw & ~m) | (((int) value << sh) & m));
                return;
            }
            int sh = 64 - w;
            long m = mask(w) << sh;
            long old = (Integer.toUnsignedLong(s.get(dwordLayout(), o)) << 32) | Integer.toUnsignedLong(s.get(dwordLayout(), o + 4));
            long v = (old & ~m) | ((value << sh) & m);
            s.set(dwordLayout(), o, (int) (v >>> 32));
            s.set(dwordLayout(), o + 4, (int) v);
        }

        /**
         * The rules, ranges, must-be-zero bits and capability gates the structure at {@code offset}
         * violates, one message each; empty when valid. Nested structures are checked too. Members of
         * an untagged union alternative are not checked (which alternative is meant is unknown), nor
         * are members of a tagged alternative its selector does not choose.
         *
         * @param capabilities tells which capability bits (e.g. {@code cmd_hca_cap.swp}) are set
         */
        public List<String> validate(MemorySegment s, long offset, Predicate<String> capabilities) {
            Objects.requireNonNull(capabilities, "capabilities == null");
            List<String> out = new ArrayList<>();
            validateInto(s, offset, capabilities, simpleName(), out, OptionalLong.empty());
            return List.copyOf(out);
        }

        private void validateInto(MemorySegment s, long offset, Predicate<String> caps, String path, List<String> out, OptionalLong tag) {
            for (Field f : fields) {
                if (!selected(s, offset, f, true, tag)) continue;
                String where = path + "." + f.name();
                switch (f.kind()) {
                    case BITS -> checkValue(where, f, read(s, offset, f.bitOffset(), (int) f.bitWidth()), caps, out);
                    case BITS_ARRAY -> {
                        for (int i = 0; i < f.count(); i++) {
                            long v = read(s, offset, f.bitOffset() + i * f.elementBits(), (int) f.elementBits());
                            checkValue(where + "[" + i + "]", f, v, caps, out);
                        }
                    }
                    case BYTES -> {
                        if (f.constraints().mustBeZero() && !isZero(s, offset + f.byteOffset(), f.bitWidth() >>> 3)) {
                            out.add(where + " (" + f.position() + "): must be zero, is not");
                        }
                        checkCapability(where, f, !isZero(s, offset + f.byteOffset(), f.bitWidth() >>> 3), caps, out);
                    }
                    case STRUCT -> {
                        checkCapability(where, f, !isZero(s, offset + f.byteOffset(), f.bitWidth() >>> 3), caps, out);
                        if (f.target().isPresent()) {
                            f.target().get().validateInto(s, offset + f.byteOffset(), caps, where, out, selectorValue(s, offset, f));
                        }
                    }
                    case STRUCT_ARRAY -> {
                        if (f.target().isPresent()) {
                            for (int i = 0; i < f.count(); i++) {
                                f.target().get().validateInto(s, offset + f.byteOffset() + i * f.elementBytes(), caps, where + "[" + i + "]", out,
                                        OptionalLong.empty());
                            }
                        }
                    }
                }
            }
            for (Rule r : rules) {
                boolean holds;
                try {
                    holds = r.check().holds(s, offset);
                } catch (ArithmeticException e) {
                    out.add(path + ": rule " + r.name() + " cannot be evaluated (" + e.getMessage() + "): " + r.expression());
                    continue;
                }
                if (!holds) out.add(path + ": rule " + r.name() + " violated: " + r.message() + " [" + r.expression() + "]");
            }
        }

        private static void checkValue(String where, Field f, long v, Predicate<String> caps, List<String> out) {
            Constraints c = f.constraints();
            String at = where + " (" + f.position() + "): ";
            if (c.mustBeZero()) {
                if (v != 0) out.add(at + "must be zero, is " + hex(v));
                return;
            }
            if (c.min().isPresent() && Long.compareUnsigned(v, c.min().getAsLong()) < 0
                    || c.max().isPresent() && Long.compareUnsigned(v, c.max().getAsLong()) > 0) {
                out.add(at + Long.toUnsignedString(v) + " is out of range "
                        + (c.min().isPresent() ? Long.toUnsignedString(c.min().getAsLong()) : "0") + ".."
                        + (c.max().isPresent() ? Long.toUnsignedString(c.max().getAsLong()) : "max"));
            }
            if (c.powerOfTwo() && (v == 0 || (v & (v - 1)) != 0)) out.add(at + Long.toUnsignedString(v) + " is not a power of two");
            checkCapability(where, f, v != 0, caps, out);
        }

        private static void checkCapability(String where, Field f, boolean inUse, Predicate<String> caps, List<String> out) {
            if (inUse && !f.capability().isEmpty() && !caps.test(f.capability())) {
                out.add(where + " (" + f.position() + "): non-zero, but capability " + f.capability() + " is not present");
            }
        }

        /**
         * Whether a member counts. Outside unions: always. In a union, space no alternative claims
         * (reserved padding) aliases the alternatives: never. An alternative of a tagged union counts
         * when the tag selects it: an inline union's selector is a field of this structure, a union
         * declaration's is a field of the enclosing structure ({@code tag}). Other alternatives count
         * only when {@code strict} is false (the dump shows them all; validate cannot know which is meant).
         */
        private boolean selected(MemorySegment s, long offset, Field f, boolean strict, OptionalLong tag) {
            if (f.variant().isEmpty()) return !(union && f.reserved());
            Variant v = f.variant().get();
            if (v.tagged()) {
                Optional<Field> sel = field(v.selector());
                if (sel.isEmpty() || sel.get().kind() != Kind.BITS) return !strict;
                return read(s, offset, sel.get().bitOffset(), (int) sel.get().bitWidth()) == v.tag().getAsLong();
            }
            if (v.tag().isPresent() && tag.isPresent()) return v.tag().getAsLong() == tag.getAsLong();
            return !strict;
        }

        /** For a member holding a tagged union: the value of its selector field, if it has one. */
        private OptionalLong selectorValue(MemorySegment s, long offset, Field f) {
            if (f.selector().isEmpty()) return OptionalLong.empty();
            Optional<Field> sel = field(f.selector());
            if (sel.isEmpty() || sel.get().kind() != Kind.BITS) return OptionalLong.empty();
            return OptionalLong.of(read(s, offset, sel.get().bitOffset(), (int) sel.get().bitWidth()));
        }

        /**
         * A readable multi-line decoding of the structure at {@code offset}: one line per non-zero
         * member with its PRM position, name, hex value and enum name; non-zero reserved bits are
         * flagged with {@code !!}. Flexible arrays are shown as far as the segment reaches in whole
         * dwords (at most {@value DUMP_FLEX_LIMIT} elements).
         *
         * <p>Any bytes are fine (a dump is what one reads when something is wrong): when the segment
         * holds fewer than {@link #sizeBytes} bytes from {@code offset} (or {@code offset} is outside
         * it), the bytes it has are decoded with the missing ones read as zero, as firmware reads a
         * short command input, and a last line says how many bytes there were. It never throws.
         */
        public String dump(MemorySegment s, long offset) {
            StringBuilder sb = new StringBuilder();
            sb.append(simpleName()).append(union ? " (union, " : " (").append(sizeBytes).append(" bytes)\n");
            long have = offset < 0 || offset > s.byteSize() ? 0 : s.byteSize() - offset;
            MemorySegment data = s;
            long at = offset;
            if (have < sizeBytes) {
                // decode a zero-filled copy of what there is: every read stays inside it
                data = MemorySegment.ofArray(new byte[(int) sizeBytes]);
                if (have > 0) MemorySegment.copy(s, offset, data, 0, have);
                at = 0;
            }
            int before = sb.length();
            dumpInto(data, at, "  ", sb, OptionalLong.empty());
            if (sb.length() == before) sb.append("  (all zero)\n");
            if (have < sizeBytes) {
                sb.append("  (only ").append(have).append(" of ").append(sizeBytes).append(" bytes given; the rest read as 0)\n");
            }
            return sb.toString();
        }

        private void dumpInto(MemorySegment s, long offset, String indent, StringBuilder sb, OptionalLong tag) {
            for (Field f : fields) {
                if (!selected(s, offset, f, false, tag)) continue;
                switch (f.kind()) {
                    case BITS -> {
                        long v = read(s, offset, f.bitOffset(), (int) f.bitWidth());
                        if (v != 0) line(sb, indent, f, f.position(), f.name(), v);
                    }
                    case BITS_ARRAY -> {
                        long n = elements(s, offset, f, f.elementBits());
                        for (long i = 0; i < n; i++) {
                            long bit = f.bitOffset() + i * f.elementBits();
                            long v = read(s, offset, bit, (int) f.elementBits());
                            if (v != 0) line(sb, indent, f, position(bit, f.elementBits()), f.name() + "[" + i + "]", v);
                        }
                    }
                    case BYTES -> {
                        long len = f.bitWidth() >>> 3;
                        if (!isZero(s, offset + f.byteOffset(), len)) {
                            sb.append(indent).append(pad(f.position())).append(f.name()).append(" = ")
                                    .append(hexBytes(s, offset + f.byteOffset(), len));
                            alternative(sb, f);
                            if (f.reserved()) sb.append("  !! reserved bytes set");
                            sb.append('\n');
                        }
                    }
                    case STRUCT -> nested(s, offset, offset + f.byteOffset(), f, f.name(), indent, sb, selectorValue(s, offset, f));
                    case STRUCT_ARRAY -> {
                        long n = elements(s, offset, f, f.elementBits());
                        for (long i = 0; i < n; i++) {
                            nested(s, offset, offset + f.byteOffset() + i * f.elementBytes(), f, f.name() + "[" + i + "]", indent, sb,
                                    OptionalLong.empty());
                        }
                    }
                }
            }
        }

        private static long elements(MemorySegment s, long offset, Field f, long elementBits) {
            if (!f.flexible()) return f.count();
            // whole dwords only: elements are read a dword at a time, and a segment may end mid-dword
            long room = ((s.byteSize() - offset) & ~3L) * 8 - f.bitOffset();
            return Math.max(0, Math.min(DUMP_FLEX_LIMIT, room / elementBits));
        }

        private static void nested(MemorySegment s, long base, long at, Field f, String label, String indent, StringBuilder sb, OptionalLong tag) {
            long len = f.elementBytes();
            if (isZero(s, at, len)) return;
            long first = at - base;
            sb.append(indent).append(pad(position(first * 8, len * 8))).append(label).append(" : ").append(f.targetName());
            alternative(sb, f);
            if (f.target().isPresent()) {
                sb.append('\n');
                f.target().get().dumpInto(s, at, indent + "  ", sb, tag);
            } else {
                sb.append(" = ").append(hexBytes(s, at, len)).append('\n');
            }
        }

        private static void line(StringBuilder sb, String indent, Field f, String position, String label, long v) {
            sb.append(indent).append(pad(position)).append(label).append(" = ").append(hex(v));
            String n = f.nameOf(v);
            if (n != null) sb.append(' ').append(n);
            alternative(sb, f);
            if (f.reserved()) sb.append("  !! reserved bits set");
            sb.append('\n');
        }

        private static void alternative(StringBuilder sb, Field f) {
            if (f.variant().isPresent()) sb.append("  (").append(f.variant().get().union()).append(": ").append(f.variant().get().alternative()).append(')');
        }
    }

    /**
     * A PRM command as the spec declares it: its opcode, the structures of its input and output, the
     * oldest (shortest) input a device accepts, and the names of its op_mod values. The generated
     * {@code PrmCommands} holds one per declared command, by opcode and by name.
     */
    public static final class Command {
        private final String name;
        private final int opcode;
        private final Struct in;
        private final Struct out;
        private final long oldestInputBytes;
        private final String opModType;
        private final LongFunction<String> opModName;
        private final String doc;
        private final String prmRef;
        private final String source;
        private final Field opcodeField;
        private final Field opModField;

        /**
         * @param name             the spec name, e.g. {@code mlx5.CREATE_CQ}
         * @param opcode           the value of the input's {@code opcode} field
         * @param in               the input structure; it begins with the 16-bit {@code opcode}
         * @param out              the output structure; it begins with {@code status} and {@code syndrome}
         * @param oldestInputBytes the shortest input a device accepts (8 up to the input's size)
         * @param opModType        the enum naming the op_mod values, "" when none (or values named in the command)
         * @param opModName        names an op_mod value, or returns null
         */
        public Command(String name, int opcode, Struct in, Struct out, long oldestInputBytes, String opModType,
                       LongFunction<String> opModName, String doc, String prmRef, String source) {
            this.name = Objects.requireNonNull(name, "name == null");
            this.opcode = opcode;
            this.in = Objects.requireNonNull(in, "in == null");
            this.out = Objects.requireNonNull(out, "out == null");
            this.oldestInputBytes = oldestInputBytes;
            this.opModType = Objects.requireNonNull(opModType, "opModType == null");
            this.opModName = Objects.requireNonNull(opModName, "opModName == null");
            this.doc = Objects.requireNonNull(doc, "doc == null");
            this.prmRef = Objects.requireNonNull(prmRef, "prmRef == null");
            this.source = Objects.requireNonNull(source, "source == null");
            this.opcodeField = in.field("opcode").orElseThrow(() -> new IllegalArgumentException(in.name() + " has no opcode field"));
            this.opModField = in.field("op_mod").filter(f -> f.kind() == Kind.BITS).orElse(null);
            if (oldestInputBytes < 8 || oldestInputBytes > in.sizeBytes() || oldestInputBytes % 4 != 0) {
                throw new IllegalArgumentException(name + ": oldest input length " + oldestInputBytes + " is not a multiple of 4 in 8.." + in.sizeBytes());
            }
        }

        /** The spec name, e.g. {@code mlx5.CREATE_CQ}. */
        public String name() { return name; }

        /** The name without the spec package, e.g. {@code CREATE_CQ}. */
        public String simpleName() {
            int i = name.lastIndexOf('.');
            return i < 0 ? name : name.substring(i + 1);
        }

        public int opcode() { return opcode; }

        public Struct in() { return in; }

        public Struct out() { return out; }

        /** The input structure's size (without a flexible trailing array): what a current driver sends. */
        public long inBytes() { return in.sizeBytes(); }

        /** The output structure's size (without a flexible trailing array). */
        public long outBytes() { return out.sizeBytes(); }

        /** The shortest input a device accepts; older drivers send this much, the device reads the rest as 0. */
        public long oldestInputBytes() { return oldestInputBytes; }

        /** The enum naming the op_mod values (its spec name), or "". */
        public String opModType() { return opModType; }

        /** The name of an op_mod value, or null when the command names none for it. */
        public String opModName(long value) { return opModName.apply(value); }

        public String doc() { return doc; }

        public String prmRef() { return prmRef; }

        /** Spec {@code file:line} of the declaration. */
        public String source() { return source; }

        /** A zeroed input of the input structure's size, its opcode set. */
        public MemorySegment input() {
            return input(0, 0);
        }

        /**
         * A zeroed input of the input structure's size plus {@code extraBytes} (a trailing array's
         * elements), its opcode and op_mod set.
         *
         * @throws IllegalArgumentException for a non-zero op_mod when the input has no op_mod field, or one that does not fit it
         */
        public MemorySegment input(long extraBytes, long opMod) {
            if (extraBytes < 0) throw new IllegalArgumentException(name + ": negative extra input bytes " + extraBytes);
            MemorySegment s = MemorySegment.ofArray(new byte[Math.toIntExact(in.sizeBytes() + extraBytes)]);
            in.set(s, 0, opcodeField, opcode);
            if (opModField != null) {
                in.set(s, 0, opModField, opMod);
            } else if (opMod != 0) {
                throw new IllegalArgumentException(name + ": " + in.simpleName() + " has no op_mod field for op_mod " + hex(opMod));
            }
            return s;
        }

        @Override
        public String toString() {
            return simpleName() + " (" + hex(opcode) + ")";
        }
    }

    /**
     * A device register as the spec declares it: its id, its layout, and the command that carries
     * it (ACCESS_REG) with where the register sits in that command's input and output. Reads and
     * writes share one framing: {@link #input} builds the command input for either op_mod, {@link
     * #data} finds the register in an input or an output.
     */
    public static final class Register {
        private final String name;
        private final int id;
        private final Struct layout;
        private final Command command;
        private final Field idField;
        private final long inDataOffset;
        private final long outDataOffset;
        private final String doc;
        private final String prmRef;
        private final String source;

        /**
         * @param idField       the carrying command's input field that holds the register id
         * @param inDataOffset  byte offset of the register in the command's input
         * @param outDataOffset byte offset of the register in the command's output
         */
        public Register(String name, int id, Struct layout, Command command, String idField, long inDataOffset, long outDataOffset,
                        String doc, String prmRef, String source) {
            this.name = Objects.requireNonNull(name, "name == null");
            this.id = id;
            this.layout = Objects.requireNonNull(layout, "layout == null");
            this.command = Objects.requireNonNull(command, "command == null");
            this.idField = command.in().field(idField).orElseThrow(() -> new IllegalArgumentException(command.in().name() + " has no field " + idField));
            this.inDataOffset = inDataOffset;
            this.outDataOffset = outDataOffset;
            this.doc = Objects.requireNonNull(doc, "doc == null");
            this.prmRef = Objects.requireNonNull(prmRef, "prmRef == null");
            this.source = Objects.requireNonNull(source, "source == null");
        }

        /** The spec name, e.g. {@code mlx5.PMTU}. */
        public String name() { return name; }

        /** The name without the spec package, e.g. {@code PMTU}. */
        public String simpleName() {
            int i = name.lastIndexOf('.');
            return i < 0 ? name : name.substring(i + 1);
        }

        public int id() { return id; }

        public Struct layout() { return layout; }

        /** The command that carries the register. */
        public Command command() { return command; }

        /** Byte offset of the register in the carrying command's input. */
        public long inDataOffset() { return inDataOffset; }

        /** Byte offset of the register in the carrying command's output. */
        public long outDataOffset() { return outDataOffset; }

        /** Bytes of a command input that carries the whole register. */
        public long inputLength() { return Math.max(command.inBytes(), inDataOffset + layout.sizeBytes()); }

        /** Bytes of a command output that carries the whole register. */
        public long outputLength() { return Math.max(command.outBytes(), outDataOffset + layout.sizeBytes()); }

        public String doc() { return doc; }

        public String prmRef() { return prmRef; }

        public String source() { return source; }

        /** The carrying command's input for this register: opcode, {@code opMod} (read or write) and register id set, the register zero. */
        public MemorySegment input(long opMod) {
            MemorySegment s = command.input(inputLength() - command.inBytes(), opMod);
            command.in().set(s, 0, idField, id);
            return s;
        }

        /**
         * The register inside {@code commandData}, an input ({@code output} false) or an output of the
         * carrying command; the same framing serves reads and writes.
         *
         * @throws IndexOutOfBoundsException when {@code commandData} is too short to hold the register
         */
        public MemorySegment data(MemorySegment commandData, boolean output) {
            return commandData.asSlice(output ? outDataOffset : inDataOffset, layout.sizeBytes());
        }

        @Override
        public String toString() {
            return simpleName() + " (" + hex(id) + ")";
        }
    }


    /**
     * A work queue entry as the spec declares it: segments in order, the bytes the device reads, the
     * values its rules need from the device, and its rules across segments. The generated
     * {@code PrmWqes} holds one per declaration. {@link #check} walks a WQE in memory segment by
     * segment (each starts where the previous ended, rounded up to 16 bytes; an optional one when its
     * condition holds; inline bytes possibly starting inside an earlier segment; a repeated segment's
     * elements to the end of the WQE, each the first alternative whose condition holds) and evaluates
     * every rule, a rule over an alternative once per element of it.
     */
    public static final class Wqe {
        /** An expression of the spec compiled to Java over a walk: segment fields through the generated getters. */
        @FunctionalInterface
        public interface Expr {
            long eval(View v);
        }

        /** What a segment is. */
        public enum SegmentKind { STRUCT, INLINE, REPEATED }

        /**
         * One segment of a WQE declaration; {@code slot} numbers segments and alternatives in declaration order
         * (the index generated expressions read them by).
         */
        public static final class Segment {
            final String name;
            final SegmentKind kind;
            final Struct struct;
            final Expr size;
            final Expr when;
            final int atSlot;
            final long atOffset;
            final List<Segment> alternatives;
            final String doc;
            int slot = -1;
            Segment parent;

            private Segment(String name, SegmentKind kind, Struct struct, Expr size, Expr when, int atSlot, long atOffset, List<Segment> alternatives,
                            String doc) {
                this.name = Objects.requireNonNull(name, "name == null");
                this.kind = kind;
                this.struct = struct;
                this.size = size;
                this.when = when;
                this.atSlot = atSlot;
                this.atOffset = atOffset;
                this.alternatives = List.copyOf(alternatives);
                this.doc = Objects.requireNonNull(doc, "doc == null");
            }

            /** A structure; {@code size} (bytes, over its own fields) and {@code when} may be null. */
            public static Segment struct(String name, Struct struct, Expr size, Expr when, String doc) {
                return new Segment(name, SegmentKind.STRUCT, Objects.requireNonNull(struct, "struct == null"), size, when, -1, 0, List.of(), doc);
            }

            /** Inline bytes, padded to 16; from {@code atOffset} of segment {@code atSlot} (or -1: after the previous segment). */
            public static Segment inline(String name, Expr bytes, int atSlot, long atOffset, Expr when, String doc) {
                return new Segment(name, SegmentKind.INLINE, null, Objects.requireNonNull(bytes, "bytes == null"), when, atSlot, atOffset, List.of(), doc);
            }

            /** Elements to the end of the WQE, each the first alternative whose condition holds. */
            public static Segment repeated(String name, String doc, Segment... alternatives) {
                return new Segment(name, SegmentKind.REPEATED, null, null, null, -1, 0, List.of(alternatives), doc);
            }

            public String name() { return name; }

            public SegmentKind kind() { return kind; }

            /** The structure (STRUCT segments and alternatives), or null. */
            public Struct struct() { return struct; }

            public List<Segment> alternatives() { return alternatives; }

            public boolean optional() { return when != null; }

            public String doc() { return doc; }
        }

        /** A value a WQE's rules need from the device; with {@code lookup}, a structure found by key. */
        public record Given(String name, Struct lookup, String enumType, String doc) {
            public Given {
                Objects.requireNonNull(name, "name == null");
                Objects.requireNonNull(enumType, "enumType == null");
                Objects.requireNonNull(doc, "doc == null");
            }
        }

        /**
         * A rule across segments. {@code reads} names what it reads, for reports: {@code seg.field},
         * a given's name, {@code given.field} (a lookup, by the key it was given last), {@code bytes(seg)},
         * {@code count(seg)} or {@code header_end(seg)}. {@code alternative}: the slot of the alternative
         * whose elements it holds for, or -1.
         */
        public record Rule(String name, String expression, String message, String source, int alternative, List<String> reads, Expr check) {
            public Rule {
                Objects.requireNonNull(name, "name == null");
                Objects.requireNonNull(expression, "expression == null");
                Objects.requireNonNull(message, "message == null");
                Objects.requireNonNull(source, "source == null");
                reads = List.copyOf(reads);
                Objects.requireNonNull(check, "check == null");
            }
        }

        /** The values a check may read from the device; immutable, {@link #with} makes a copy. */
        public static final class Context {
            private static final Context NONE = new Context(new java.util.HashMap<>(), new java.util.HashMap<>());
            final java.util.Map<String, Long> values;
            final java.util.Map<String, LongFunction<MemorySegment>> lookups;

            private Context(java.util.Map<String, Long> values, java.util.Map<String, LongFunction<MemorySegment>> lookups) {
                this.values = values;
                this.lookups = lookups;
            }

            /** No values: rules that need one are not checked. */
            public static Context none() { return NONE; }

            /** This context and given {@code name} = {@code value}. */
            public Context with(String name, long value) {
                java.util.Map<String, Long> v = new java.util.HashMap<>(values);
                v.put(Objects.requireNonNull(name, "name == null"), value);
                return new Context(v, lookups);
            }

            /** This context and lookup given {@code name}: the structure for a key, or null when the device has none. */
            public Context with(String name, LongFunction<MemorySegment> byKey) {
                java.util.Map<String, LongFunction<MemorySegment>> l = new java.util.HashMap<>(lookups);
                l.put(Objects.requireNonNull(name, "name == null"), Objects.requireNonNull(byKey, "byKey == null"));
                return new Context(values, l);
            }
        }

        /** Thrown (preallocated, without a stack trace) when an expression reads what the walk does not have. */
        static final class Missing extends java.lang.RuntimeException {
            private static final long serialVersionUID = 1L;
            String what;

            Missing() {
                super(null, null, false, false);
            }
        }

        /** A walk over one WQE: where each segment (the current element, for an alternative) is, and the context. */
        public static final class View {
            MemorySegment s;
            final long[] at;
            final long[] len;
            final boolean[] present;
            final long[] headerEnd;
            final int[] count;
            final long[] givens;
            final boolean[] haveGiven;
            final List<LongFunction<MemorySegment>> lookups;
            final long[] lastKey;
            final Wqe wqe;
            final Missing missing = new Missing();
            long base;

            View(Wqe wqe, MemorySegment s, Context ctx) {
                this.wqe = wqe;
                this.s = s;
                int n = wqe.slots.size();
                at = new long[n];
                len = new long[n];
                present = new boolean[n];
                headerEnd = new long[n];
                count = new int[n];
                int g = wqe.givens.size();
                givens = new long[g];
                haveGiven = new boolean[g];
                lookups = new ArrayList<>(g);
                lastKey = new long[g];
                for (int i = 0; i < g; i++) {
                    Given gv = wqe.givens.get(i);
                    lookups.add(gv.lookup() != null ? ctx.lookups.get(gv.name()) : null);
                    if (gv.lookup() == null) {
                        Long v = ctx.values.get(gv.name());
                        haveGiven[i] = v != null;
                        givens[i] = v == null ? 0 : v;
                    }
                }
            }

            /** The memory the WQE is in. */
            public MemorySegment s() { return s; }

            /** Forgets the last walk: a Checker's next WQE. */
            void reset(MemorySegment s, long base) {
                this.s = s;
                this.base = base;
                java.util.Arrays.fill(present, false);
                java.util.Arrays.fill(count, 0);
            }

            /** Where segment {@code slot} (or the current element of an alternative) starts in {@link #s()}. */
            public long at(int slot) {
                if (!present[slot]) throw missing("segment " + wqe.slots.get(slot).name + " (not in this WQE)");
                return at[slot];
            }

            /** Bytes of inline segment {@code slot}; 0 when it is absent. */
            public long bytes(int slot) {
                return present[slot] ? len[slot] : 0;
            }

            /** Elements of repeated segment (or alternative) {@code slot}. */
            public long count(int slot) {
                return count[slot];
            }

            /** Given {@code i}'s value. */
            public long given(int i) {
                if (!haveGiven[i]) throw missing(wqe.givens.get(i).name());
                return givens[i];
            }

            /** The structure lookup given {@code i} holds for {@code key}, at offset 0. */
            public MemorySegment lookup(int i, long key) {
                LongFunction<MemorySegment> f = lookups.get(i);
                MemorySegment m = f == null ? null : f.apply(key);
                if (m == null) throw missing(wqe.givens.get(i).name() + "(" + hex(key) + ")");
                lastKey[i] = key;
                return m;
            }

            /**
             * Where the frame's headers up to {@code level} end in inline segment {@code slot}'s bytes: 0
             * nothing; 1 Ethernet and its VLAN tags; 2 and the IPv4/IPv6 header; 3 and the TCP/UDP header. One
             * past the bytes when they end before a length can be read.
             */
            public long headerEnd(int slot, long level) {
                long n = bytes(slot);
                long r = present[slot] ? frameHeaderEnd(s, at[slot], n, level) : (level == 0 ? 0 : 1);
                headerEnd[slot] = r;
                return r;
            }

            private Missing missing(String what) {
                missing.what = what;
                return missing;
            }
        }

        /** Ethernet, VLAN (0x8100, 0x88a8), IPv4 (0x0800), IPv6 (0x86dd), TCP (6), UDP (17): the header lengths header_end reads. */
        static long frameHeaderEnd(MemorySegment s, long o, long n, long level) {
            if (level == 0) return 0;
            long l2 = 14;
            if (n < l2) return n + 1;
            int type = Short.toUnsignedInt(s.get(BE_SHORT, o + 12));
            while (type == 0x8100 || type == 0x88a8) {
                if (n < l2 + 4) return n + 1;
                type = Short.toUnsignedInt(s.get(BE_SHORT, o + l2 + 2));
                l2 += 4;
            }
            if (level == 1 || (type != 0x0800 && type != 0x86dd)) return l2;
            long l3;
            int proto;
            if (type == 0x0800) {
                if (n < l2 + 10) return n + 1;
                l3 = (s.get(BYTE, o + l2) & 0x0f) * 4L;
                proto = Byte.toUnsignedInt(s.get(BYTE, o + l2 + 9));
            } else {
                if (n < l2 + 7) return n + 1;
                l3 = 40;
                proto = Byte.toUnsignedInt(s.get(BYTE, o + l2 + 6));
            }
            long l4at = l2 + l3;
            if (level == 2 || (proto != 6 && proto != 17)) return l4at;
            if (proto == 17) return l4at + 8;
            if (n < l4at + 13) return n + 1;
            return l4at + ((Byte.toUnsignedInt(s.get(BYTE, o + l4at + 12)) >>> 4) * 4L);
        }

        /** A segment as a check placed it: an alternative's element has its alternative's name and its index in the run. */
        public record Placed(String segment, String alternative, int element, Struct struct, long offset, long bytes) {
            /** {@code eth}, {@code data[2] (pointer)}. */
            public String label() {
                return alternative == null ? segment : segment + "[" + element + "] (" + alternative + ")";
            }
        }

        /** A broken rule: its name, message and expression, the values it read ({@code eth.mss = 0}), and where (an element, or ""). */
        public record Broken(String rule, String message, String expression, List<String> values, String where) {
            @Override
            public String toString() {
                return rule + (where.isEmpty() ? "" : " at " + where) + ": " + message + (values.isEmpty() ? "" : " (" + String.join(", ", values) + ")");
            }
        }

        /**
         * What a check found: the segments placed, the WQE's size (-1 when a given it needs is missing),
         * the broken rules, the rules not checked (and why), and whether the bytes ended before the WQE.
         */
        public record Report(String wqe, List<Placed> segments, long size, List<Broken> broken, List<String> unchecked, String truncated) {
            public boolean ok() {
                return broken.isEmpty();
            }
        }

        private final String name;
        private final Expr size;
        private final String sizeExpression;
        private final String sizeMessage;
        private final Expr match;
        private final List<Given> givens;
        private final List<Segment> segments;
        private final List<Rule> rules;
        private final String doc;
        private final String prmRef;
        private final String source;
        final List<Segment> slots = new ArrayList<>();
        private final int leading;

        /**
         * @param size           the WQE's bytes; reads the leading fixed structures and givens
         * @param sizeExpression the size in spec syntax
         * @param match          whether a WQE is one this declaration describes, or null
         */
        public Wqe(String name, Expr size, String sizeExpression, String sizeMessage, Expr match, List<Given> givens, List<Segment> segments,
                   List<Rule> rules, String doc, String prmRef, String source) {
            this.name = Objects.requireNonNull(name, "name == null");
            this.size = Objects.requireNonNull(size, "size == null");
            this.sizeExpression = Objects.requireNonNull(sizeExpression, "sizeExpression == null");
            this.sizeMessage = Objects.requireNonNull(sizeMessage, "sizeMessage == null");
            this.match = match;
            this.givens = List.copyOf(givens);
            this.segments = List.copyOf(segments);
            this.rules = List.copyOf(rules);
            this.doc = Objects.requireNonNull(doc, "doc == null");
            this.prmRef = Objects.requireNonNull(prmRef, "prmRef == null");
            this.source = Objects.requireNonNull(source, "source == null");
            for (Segment s : this.segments) {
                if (s.slot >= 0) throw new IllegalArgumentException(name + ": segment " + s.name + " belongs to another WQE");
                s.slot = slots.size();
                slots.add(s);
                for (Segment a : s.alternatives) {
                    a.slot = slots.size();
                    a.parent = s;
                    slots.add(a);
                }
            }
            int n = 0;
            while (n < this.segments.size() && this.segments.get(n).kind == SegmentKind.STRUCT && this.segments.get(n).when == null
                    && this.segments.get(n).size == null) n++;
            leading = n;
        }

        /** The spec name, e.g. {@code mlx5.tx_wqe}. */
        public String name() { return name; }

        public String simpleName() {
            int i = name.lastIndexOf('.');
            return i < 0 ? name : name.substring(i + 1);
        }

        public List<Segment> segments() { return segments; }

        public List<Given> givens() { return givens; }

        public List<Rule> rules() { return rules; }

        public String sizeExpression() { return sizeExpression; }

        public String sizeMessage() { return sizeMessage; }

        public String doc() { return doc; }

        public String prmRef() { return prmRef; }

        public String source() { return source; }

        /** Bytes of the leading fixed structures: what {@link #matches} and the size need. */
        public long headerBytes() {
            long b = 0;
            for (int i = 0; i < leading; i++) b += align(segments.get(i).struct.sizeBytes());
            return b;
        }

        /** Whether the WQE at {@code offset} is one this declaration describes (false when it says nothing, or the bytes are too few). */
        public boolean matches(MemorySegment s, long offset) {
            if (match == null || s.byteSize() - offset < headerBytes()) return false;
            View v = new View(this, s, Context.none());
            placeLeading(v, offset);
            try {
                return match.eval(v) != 0;
            } catch (Missing m) {
                return false;
            }
        }

        private long placeLeading(View v, long offset) {
            long cursor = offset;
            for (int i = 0; i < leading; i++) {
                Segment g = segments.get(i);
                v.at[g.slot] = cursor;
                v.present[g.slot] = true;
                cursor += align(g.struct.sizeBytes());
            }
            return cursor;
        }

        static long align(long bytes) {
            return (bytes + 15) & ~15L;
        }

        /**
         * Walks the WQE at {@code offset} of {@code s} (at most {@code available} bytes of it) and checks
         * every rule. Never throws for any bytes: what cannot be read is reported.
         */
        public Report check(MemorySegment s, long offset, long available, Context ctx) {
            Objects.requireNonNull(ctx, "ctx == null");
            long limit = offset + Math.max(0, Math.min(available, s.byteSize() - offset));
            View v = new View(this, s, ctx);
            v.base = offset;
            List<Placed> placed = new ArrayList<>();
            List<Broken> broken = new ArrayList<>();
            List<String> unchecked = new ArrayList<>();
            String truncated = null;
            long wqeSize = -1;
            long cursor = offset;
            boolean sized = false;
            for (int i = 0; i < segments.size() && truncated == null; i++) {
                Segment g = segments.get(i);
                if (i == leading) {
                    wqeSize = size(v, unchecked);
                    sized = true;
                }
                long end = wqeSize >= 0 ? Math.min(limit, offset + wqeSize) : limit;
                try {
                    if (g.when != null && g.when.eval(v) == 0) continue;
                    switch (g.kind) {
                        case STRUCT -> {
                            if (cursor + g.struct.sizeBytes() > limit) {
                                truncated = "the bytes end inside segment " + g.name + " (at 0x" + Long.toHexString(cursor - offset) + ")";
                                break;
                            }
                            v.at[g.slot] = cursor;
                            v.present[g.slot] = true;
                            long b = g.size == null ? g.struct.sizeBytes() : g.size.eval(v);
                            placed.add(new Placed(g.name, null, -1, g.struct, cursor - offset, b));
                            cursor += align(b);
                        }
                        case INLINE -> {
                            long n = g.size.eval(v);
                            long start = g.atSlot >= 0 ? v.at(g.atSlot) + g.atOffset : cursor;
                            if (n < 0 || start + n > limit) {
                                truncated = "the bytes end inside inline segment " + g.name + " (" + n + " bytes from 0x" + Long.toHexString(start - offset) + ")";
                                break;
                            }
                            v.at[g.slot] = start;
                            v.len[g.slot] = n;
                            v.present[g.slot] = true;
                            placed.add(new Placed(g.name, null, -1, null, start - offset, n));
                            cursor = Math.max(cursor, offset + align(start + n - offset));
                        }
                        case REPEATED -> {
                            int element = 0;
                            v.present[g.slot] = true;
                            while (cursor < end && truncated == null) {
                                Segment chosen = null;
                                for (Segment a : g.alternatives) {
                                    if (cursor + a.struct.sizeBytes() > limit) continue;
                                    v.at[a.slot] = cursor;
                                    v.present[a.slot] = true;
                                    if (a.when == null || a.when.eval(v) != 0) {
                                        chosen = a;
                                        break;
                                    }
                                }
                                if (chosen == null) {
                                    truncated = "the bytes end inside element " + element + " of " + g.name + " (at 0x" + Long.toHexString(cursor - offset) + ")";
                                    break;
                                }
                                long b = chosen.size == null ? chosen.struct.sizeBytes() : chosen.size.eval(v);
                                placed.add(new Placed(g.name, chosen.name, element, chosen.struct, cursor - offset, b));
                                v.count[chosen.slot]++;
                                v.count[g.slot]++;
                                element++;
                                cursor += Math.max(16, align(b));
                            }
                        }
                    }
                } catch (Missing m) {
                    truncated = "segment " + g.name + " cannot be placed: it needs " + m.what;
                }
            }
            if (!sized) wqeSize = size(v, unchecked);
            if (wqeSize >= 0 && cursor - offset > wqeSize) {
                broken.add(new Broken("size", sizeMessage, sizeExpression, sizeValues(v, wqeSize, cursor - offset, placed), ""));
            }
            if (truncated == null && wqeSize > limit - offset) {
                truncated = "the WQE is " + wqeSize + " bytes (" + sizeExpression + "), the bytes given hold " + (limit - offset);
            }
            for (Rule r : rules) evaluate(v, r, placed, broken, unchecked);
            return new Report(name, List.copyOf(placed), wqeSize, List.copyOf(broken), List.copyOf(unchecked), truncated == null ? "" : truncated);
        }

        /** A reusable checker with {@code ctx}'s values, for a device model that checks every WQE it runs. */
        public Checker checker(Context ctx) {
            return new Checker(this, Objects.requireNonNull(ctx, "ctx == null"));
        }

        /**
         * Checks WQEs one after another with one walk state: no allocation for a WQE that breaks no rule
         * (a run longer than any before grows the element table once). Rules that read a given the
         * context lacks are skipped, as {@link #check} reports them not checked; {@link #set} changes a
         * value given at creation (a queue's counter) between WQEs.
         */
        public static final class Checker {
            private final Wqe wqe;
            private final View v;
            private final boolean[] runnable;
            private long[] elementAt = new long[16];
            private int[] elementSlot = new int[16];
            private int elements;

            Checker(Wqe wqe, Context ctx) {
                this.wqe = wqe;
                this.v = new View(wqe, MemorySegment.NULL, ctx);
                this.runnable = new boolean[wqe.rules.size()];
                for (int r = 0; r < runnable.length; r++) {
                    boolean ok = true;
                    for (String read : wqe.rules.get(r).reads()) {
                        int dot = read.indexOf('.');
                        String head = read.indexOf('(') < 0 && dot > 0 ? read.substring(0, dot) : read;
                        for (int i = 0; i < wqe.givens.size(); i++) {
                            if (!wqe.givens.get(i).name().equals(head)) continue;
                            ok &= wqe.givens.get(i).lookup() != null ? v.lookups.get(i) != null : v.haveGiven[i];
                        }
                    }
                    runnable[r] = ok;
                }
            }

            /** The index of given {@code name} for {@link #set}; -1 when the WQE has none. */
            public int given(String name) {
                for (int i = 0; i < wqe.givens.size(); i++) if (wqe.givens.get(i).name().equals(name)) return i;
                return -1;
            }

            /** Sets given {@code index} (it must have had a value in the context the checker was made with). */
            public void set(int index, long value) {
                if (!v.haveGiven[index]) throw new IllegalStateException(wqe.givens.get(index).name() + " was not given when the checker was made");
                v.givens[index] = value;
            }

            /**
             * The first rule the WQE at {@code offset} breaks, as an index of {@link Wqe#rules()}, or
             * {@code rules().size()} when its segments do not fit its size (or the {@code available} bytes),
             * or -1 when it breaks none.
             */
            public int firstBroken(MemorySegment s, long offset, long available) {
                View v = this.v;
                v.reset(s, offset);
                elements = 0;
                long limit = offset + Math.max(0, Math.min(available, s.byteSize() - offset));
                long cursor = offset;
                long size = -1;
                List<Segment> segments = wqe.segments;
                int sizeRule = wqe.rules.size();
                try {
                    for (int i = 0; i < segments.size(); i++) {
                        Segment g = segments.get(i);
                        if (i == wqe.leading) size = wqe.size.eval(v);
                        long end = size >= 0 ? Math.min(limit, offset + size) : limit;
                        if (g.when != null && g.when.eval(v) == 0) continue;
                        switch (g.kind) {
                            case STRUCT -> {
                                if (cursor + g.struct.sizeBytes() > limit) return sizeRule;
                                v.at[g.slot] = cursor;
                                v.present[g.slot] = true;
                                cursor += align(g.size == null ? g.struct.sizeBytes() : g.size.eval(v));
                            }
                            case INLINE -> {
                                long n = g.size.eval(v);
                                long start = g.atSlot >= 0 ? v.at(g.atSlot) + g.atOffset : cursor;
                                if (n < 0 || start + n > limit) return sizeRule;
                                v.at[g.slot] = start;
                                v.len[g.slot] = n;
                                v.present[g.slot] = true;
                                cursor = Math.max(cursor, offset + align(start + n - offset));
                            }
                            case REPEATED -> {
                                v.present[g.slot] = true;
                                while (cursor < end) {
                                    Segment chosen = null;
                                    for (int k = 0; k < g.alternatives.size(); k++) { // indexed: no iterator per element
                                        Segment a = g.alternatives.get(k);
                                        if (cursor + a.struct.sizeBytes() > limit) continue;
                                        v.at[a.slot] = cursor;
                                        v.present[a.slot] = true;
                                        if (a.when == null || a.when.eval(v) != 0) {
                                            chosen = a;
                                            break;
                                        }
                                    }
                                    if (chosen == null) return sizeRule;
                                    if (elements == elementAt.length) {
                                        elementAt = java.util.Arrays.copyOf(elementAt, elements * 2);
                                        elementSlot = java.util.Arrays.copyOf(elementSlot, elements * 2);
                                    }
                                    elementAt[elements] = cursor;
                                    elementSlot[elements++] = chosen.slot;
                                    v.count[chosen.slot]++;
                                    v.count[g.slot]++;
                                    cursor += Math.max(16, align(chosen.size == null ? chosen.struct.sizeBytes() : chosen.size.eval(v)));
                                }
                            }
                        }
                    }
                    if (wqe.leading == segments.size()) size = wqe.size.eval(v);
                } catch (Missing m) {
                    return sizeRule; // a segment the walk needs cannot be placed
                } catch (ArithmeticException e) {
                    return sizeRule;
                }
                if (size >= 0 && (cursor - offset > size || size > limit - offset)) return sizeRule;
                for (int r = 0; r < runnable.length; r++) {
                    if (!runnable[r]) continue;
                    Rule rule = wqe.rules.get(r);
                    int alt = rule.alternative();
                    try {
                        if (alt < 0) {
                            if (rule.check().eval(v) == 0) return r;
                            continue;
                        }
                        for (int e = 0; e < elements; e++) {
                            if (elementSlot[e] != alt) continue;
                            v.at[alt] = elementAt[e];
                            v.present[alt] = true;
                            if (rule.check().eval(v) == 0) return r;
                        }
                    } catch (Missing m) {
                        // reads a segment this WQE does not have: nothing to break
                    } catch (ArithmeticException e) {
                        return r;
                    }
                }
                return -1;
            }
        }

        private long size(View v, List<String> unchecked) {
            try {
                return size.eval(v);
            } catch (Missing m) {
                unchecked.add("size: needs " + m.what);
                return -1;
            }
        }

        private List<String> sizeValues(View v, long wqeSize, long need, List<Placed> placed) {
            List<String> out = new ArrayList<>();
            out.add(sizeExpression + " = " + wqeSize + " bytes");
            out.add("the segments need " + need);
            StringBuilder sb = new StringBuilder();
            for (Placed p : placed) {
                if (sb.length() > 0) sb.append(", ");
                sb.append(p.label()).append(" 0x").append(Long.toHexString(p.offset())).append("..0x").append(Long.toHexString(p.offset() + Math.max(1, p.bytes()) - 1));
            }
            if (sb.length() > 0) out.add(sb.toString());
            return out;
        }

        private void evaluate(View v, Rule r, List<Placed> placed, List<Broken> broken, List<String> unchecked) {
            if (r.alternative() < 0) {
                once(v, r, "", broken, unchecked);
                return;
            }
            Segment alt = slots.get(r.alternative());
            for (Placed p : placed) {
                if (!alt.name.equals(p.alternative())) continue;
                v.at[alt.slot] = v.base + p.offset();
                v.present[alt.slot] = true;
                if (!once(v, r, p.label(), broken, unchecked)) return;
            }
        }

        /** Evaluates {@code r} once; false when it could not be (reported as unchecked). */
        private boolean once(View v, Rule r, String where, List<Broken> broken, List<String> unchecked) {
            try {
                if (r.check().eval(v) != 0) return true;
                broken.add(new Broken(r.name(), r.message(), r.expression(), values(v, r), where));
                return true;
            } catch (Missing m) {
                unchecked.add(r.name() + ": needs " + m.what);
                return false;
            } catch (ArithmeticException e) {
                broken.add(new Broken(r.name(), r.message() + " (" + e.getMessage() + ")", r.expression(), values(v, r), where));
                return true;
            }
        }

        /** What rule {@code r} read, by name and value, as far as it can be read. */
        private List<String> values(View v, Rule r) {
            List<String> out = new ArrayList<>();
            for (String read : r.reads()) {
                String shown = read;
                int dot = read.indexOf('.');
                for (int i = 0; i < givens.size() && dot > 0 && read.indexOf('(') < 0; i++) {
                    if (givens.get(i).lookup() != null && givens.get(i).name().equals(read.substring(0, dot))) {
                        shown = read.substring(0, dot) + "(" + hex(v.lastKey[i]) + ")" + read.substring(dot);
                    }
                }
                try {
                    out.add(shown + " = " + value(v, read));
                } catch (RuntimeException e) {
                    out.add(shown + " = ?");
                }
            }
            return out;
        }

        private String value(View v, String read) {
            int paren = read.indexOf('(');
            if (paren > 0) {
                String fn = read.substring(0, paren);
                Segment g = slot(read.substring(paren + 1, read.length() - 1));
                long x = switch (fn) {
                    case "bytes" -> v.bytes(g.slot);
                    case "count" -> v.count(g.slot);
                    default -> v.headerEnd[g.slot];
                };
                return Long.toString(x);
            }
            int dot = read.indexOf('.');
            if (dot < 0) {
                for (int i = 0; i < givens.size(); i++) {
                    if (givens.get(i).name().equals(read)) return named(v.given(i), null);
                }
                return "?";
            }
            String head = read.substring(0, dot);
            String field = read.substring(dot + 1);
            for (int i = 0; i < givens.size(); i++) {
                Given gv = givens.get(i);
                if (gv.name().equals(head) && gv.lookup() != null) {
                    Field f = gv.lookup().field(field).orElseThrow();
                    long key = v.lastKey[i];
                    return named(gv.lookup().get(v.lookup(i, key), 0, f), f);
                }
            }
            Segment g = slot(head);
            Field f = g.struct.field(field).orElseThrow();
            return named(g.struct.get(v.s, v.at(g.slot), f), f);
        }

        private static String named(long value, Field f) {
            String n = f == null ? null : f.nameOf(value);
            return (value >= 0 && value < 10 ? Long.toString(value) : hex(value)) + (n == null ? "" : " (" + n + ")");
        }

        private Segment slot(String segment) {
            for (Segment g : slots) if (g.name.equals(segment)) return g;
            throw new IllegalArgumentException(name + " has no segment " + segment);
        }

        @Override
        public String toString() {
            return simpleName();
        }
    }

    /** The PRM position of {@code width} bits at {@code bit}: {@code dword 0x04 [23:16]} or {@code bytes 0x08..0x0f}. */
    static String position(long bit, long width) {
        if (width <= 32 && (bit & 31) + width <= 32) {
            int hi = 31 - (int) (bit & 31);
            int lo = hi - (int) width + 1;
            return String.format("dword 0x%02x ", (bit >>> 5) * 4) + (hi == lo ? "[" + hi + "]" : "[" + hi + ":" + lo + "]");
        }
        return String.format("bytes 0x%02x..0x%02x", bit >>> 3, (bit + width + 7) / 8 - 1);
    }

    /** Pads a position to a column so names line up in dumps. */
    static String pad(String position) {
        StringBuilder sb = new StringBuilder(position);
        do sb.append(' '); while (sb.length() < 21);
        return sb.toString();
    }

    static long mask(int w) {
        return w == 64 ? -1L : (1L << w) - 1;
    }

    static boolean isZero(MemorySegment s, long offset, long len) {
        for (long i = 0; i < len; i++) {
            if (s.get(BYTE, offset + i) != 0) return false;
        }
        return true;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    static String hexBytes(MemorySegment s, long offset, long len) {
        long shown = Math.min(len, 64);
        StringBuilder sb = new StringBuilder();
        HexFormat hf = HexFormat.of();
        for (long i = 0; i < shown; i++) {
            if (i > 0) sb.append(' ');
            sb.append(hf.toHexDigits(s.get(BYTE, offset + i)));
        }
        if (shown < len) sb.append(" ...");
        return sb.toString();
    }

    /**
     * A logical field the PRM splits over several bit fields of one structure ({@code mkc.access_mode} over
     * {@code access_mode_4_2} and {@code access_mode_1_0}, a {@code _high}/{@code _low} pair). Bits of the
     * value no part holds are zero.
     *
     * @param parts    most significant first
     * @param enumType the spec name of the enum naming the whole value, or ""
     * @param mask     the bits of the value the parts hold
     */
    public record Join(String name, int bitWidth, List<JoinPart> parts, String enumType, long mask, String doc, String source) {
        public Join {
            Objects.requireNonNull(name, "name == null");
            parts = List.copyOf(parts);
            Objects.requireNonNull(enumType, "enumType == null");
            Objects.requireNonNull(doc, "doc == null");
            Objects.requireNonNull(source, "source == null");
        }
    }

    /** A part of a {@link Join}: bit field {@code field} holds the value's bits from {@code shift} up. */
    public record JoinPart(String field, int shift) {
        public JoinPart {
            Objects.requireNonNull(field, "field == null");
        }
    }

    /** What a joined field's checked setter throws for a value with bits no part holds. */
    public static IllegalArgumentException outsideParts(String struct, String field, long mask, long value) {
        return new IllegalArgumentException(struct + "." + field + ": value " + Long.toUnsignedString(value) + " (0x" + Long.toHexString(value)
                + ") has bits outside 0x" + Long.toHexString(mask) + ", the bits its parts hold");
    }

    // The cold paths and the rule arithmetic of generated accessors: public for generated code, not an API of their own.

    /** The exception a checked setter throws; kept out of the accessors so they stay small. */
    public static IllegalArgumentException outOfRange(String struct, String field, int width, long value) {
        return new IllegalArgumentException(struct + "." + field + ": value " + value + " (0x" + Long.toHexString(value)
                + ") does not fit in " + width + (width == 1 ? " bit" : " bits") + " (0.." + Long.toUnsignedString(mask(width)) + ")");
    }

    public static IllegalArgumentException tooLong(String struct, String field, int length, int given) {
        return new IllegalArgumentException(struct + "." + field + ": " + given + " bytes do not fit in " + length);
    }

    public static IllegalArgumentException tooShort(String struct, String field, int length, int given) {
        return new IllegalArgumentException(struct + "." + field + ": destination of " + given + " bytes is shorter than " + length);
    }

    // Rule arithmetic on unsigned 64-bit values (the spec's rule semantics).
    public static long div(long a, long b) {
        if (b == 0) throw new ArithmeticException("division by zero");
        return Long.divideUnsigned(a, b);
    }

    public static long rem(long a, long b) {
        if (b == 0) throw new ArithmeticException("division by zero");
        return Long.remainderUnsigned(a, b);
    }

    /** Logical shifts: a count of 64 or more shifts every bit out (Java's operators mask the count). */
    public static long shl(long v, long n) {
        return Long.compareUnsigned(n, 64) >= 0 ? 0 : v << n;
    }

    public static long shr(long v, long n) {
        return Long.compareUnsigned(n, 64) >= 0 ? 0 : v >>> n;
    }
}
