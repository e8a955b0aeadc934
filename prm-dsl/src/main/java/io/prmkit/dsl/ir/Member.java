package io.prmkit.dsl.ir;

import io.prmkit.dsl.SourceLocation;
import java.util.Objects;
import java.util.Optional;

/**
 * One resolved member of a structure: where it is, how wide, what it holds and what the PRM says
 * about it. Offsets are absolute within the top-level structure and count bits from the most
 * significant bit of byte 0, exactly like the kernel's {@code __mlx5_bit_off}; dword and
 * {@code [hi:lo]} are derived from them.
 *
 * <p>The constructor throws {@link IllegalArgumentException} for a member placed where no accessor can
 * reach it (see {@link #misplaced}).
 *
 * @param name        the member name; reserved members carry the kernel's {@code reserved_at_<hex>} name
 * @param bitOffset   absolute bit offset from the MSB of byte 0
 * @param type        what the member holds, with its width
 * @param reserved    reserved space (no accessor for writing; must be zero)
 * @param access      who writes it
 * @param enumType    the enum bound to the field, if any (open: unknown values stay readable)
 * @param flagsType   the flag set naming bits of the field, if any
 * @param constraints ranges, power-of-two, log2 encoding, must-be-zero
 * @param capability  the capability bit that must be set for the field to be valid, if any
 * @param variant     the inline union alternative the member belongs to, if any
 * @param selector    for a member holding a tagged union type: the sibling field selecting the alternative, else ""
 * @param doc         one-line documentation, PRM reference and since tag
 * @param location    where the member is declared
 */
public record Member(
        String name,
        long bitOffset,
        MemberType type,
        boolean reserved,
        Access access,
        Optional<QualifiedName> enumType,
        Optional<QualifiedName> flagsType,
        Constraints constraints,
        Optional<FieldRef> capability,
        Optional<Variant> variant,
        String selector,
        Doc doc,
        SourceLocation location) {

    public Member {
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(type, "type == null");
        Objects.requireNonNull(access, "access == null");
        Objects.requireNonNull(enumType, "enumType == null");
        Objects.requireNonNull(flagsType, "flagsType == null");
        Objects.requireNonNull(constraints, "constraints == null");
        Objects.requireNonNull(capability, "capability == null");
        Objects.requireNonNull(variant, "variant == null");
        Objects.requireNonNull(selector, "selector == null");
        Objects.requireNonNull(doc, "doc == null");
        Objects.requireNonNull(location, "location == null");
        if (bitOffset < 0) throw new IllegalArgumentException("negative bit offset for " + name);
        String misplaced = misplaced(bitOffset, type, reserved);
        if (misplaced != null) throw new IllegalArgumentException("'" + name + "' at bit 0x" + Long.toHexString(bitOffset) + ": " + misplaced);
        if ((enumType.isPresent() || flagsType.isPresent()) && !(type instanceof MemberType.Bits)) {
            throw new IllegalArgumentException("'" + name + "' names an enum or flag set but is not a bit field");
        }
        if (constraints.max().isPresent() && type instanceof MemberType.Bits b && b.width() < 64
                && Long.compareUnsigned(constraints.max().getAsLong(), (1L << b.width()) - 1) > 0) {
            throw new IllegalArgumentException("'" + name + "': range maximum " + Long.toUnsignedString(constraints.max().getAsLong())
                    + " does not fit " + b.width() + " bits");
        }
    }

    /**
     * Why a member of this type cannot sit at {@code bit}, or null when it can: the placement rules
     * the compiler enforces and the accessors rely on. A field narrower than 32 bits lies within one
     * dword, a wider one starts on a dword boundary (so 33..63-bit fields are rejected unless
     * reserved), and so does every element of an array of bit fields; byte arrays and structures
     * start on a byte boundary. Reserved bit fields may sit anywhere: nothing accesses them by name.
     */
    static String misplaced(long bit, MemberType type, boolean reserved) {
        if (type instanceof MemberType.Bits b) {
            return reserved ? null : bitsMisplaced(bit, b.width());
        }
        if (type instanceof MemberType.Bytes || type instanceof MemberType.StructRef) {
            return bit % 8 == 0 ? null : "a byte array or structure must start on a byte boundary";
        }
        MemberType.Array a = (MemberType.Array) type;
        if (a.element() instanceof MemberType.StructRef) {
            return bit % 8 == 0 ? null : "an array of structures must start on a byte boundary";
        }
        if (!(a.element() instanceof MemberType.Bits b)) return "arrays of " + a.element().getClass().getSimpleName() + " are not supported";
        if (reserved && b.width() == 1) return null; // reserved space the compiler spells as single bits
        if (b.width() > 32 && b.width() != 64) return "elements of " + b.width() + " bits cannot all start on a dword boundary";
        int n = a.flexible() ? 32 : Math.min(a.count(), 32); // element offsets mod 32 repeat after 32 elements
        for (int i = 0; i < n; i++) {
            String why = bitsMisplaced(bit + (long) i * b.width(), b.width());
            if (why != null) return "element " + i + ": " + why;
        }
        return null;
    }

    private static String bitsMisplaced(long bit, int width) {
        if (width >= 32) return bit % 32 == 0 ? null : "a " + width + "-bit field must start on a dword boundary";
        return (bit & 31) + width <= 32 ? null : "a " + width + "-bit field crosses a dword boundary";
    }

    /** Total width in bits (element width times count for arrays; 0 for a flexible array). */
    public long bitWidth() {
        return type.bitWidth();
    }

    /** The bit just past the member. */
    public long bitEnd() {
        return bitOffset + bitWidth();
    }

    /** Whether the member is a plain bit field (1..64 bits) with get/set accessors. */
    public boolean isScalar() {
        return type instanceof MemberType.Bits;
    }

    /** Index of the dword holding the member's first bit. */
    public long dword() {
        return bitOffset >>> 5;
    }

    /** Byte offset of the dword holding the member's first bit, as the PRM tables print it. */
    public long dwordByteOffset() {
        return dword() * 4;
    }

    /** Byte offset of the member's first bit (exact for byte-aligned members). */
    public long byteOffset() {
        return bitOffset >>> 3;
    }

    /** PRM bit number (31 = MSB of the big-endian dword) of the member's most significant bit. */
    public int hiBit() {
        return 31 - (int) (bitOffset & 31);
    }

    /**
     * PRM bit number of the member's least significant bit within its first dword; for members of
     * 32 bits or more that start on a dword boundary this is 0. A flexible array (no bits) has
     * {@code loBit() == hiBit()}: the position where it starts.
     */
    public int loBit() {
        long w = Math.max(1, Math.min(bitWidth(), 32 - (bitOffset & 31)));
        return hiBit() - (int) w + 1;
    }

    /** {@code dword 0x04 [23:16]}, the way a PRM table locates the member (see {@link PrmPosition}). */
    public String prmPosition() {
        return PrmPosition.of(this);
    }
}
