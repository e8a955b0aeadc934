package io.prmkit.dsl.ir;

import java.util.Objects;

/** What a member holds. Every variant knows its width in bits, so layout checks need no lookup. */
public sealed interface MemberType {

    /** Width of one whole member in bits; 0 for a flexible array (it has no fixed size). */
    long bitWidth();

    /** An unsigned bit field of 1..64 bits. Fields of 32 bits or more are dword-aligned. */
    record Bits(int width) implements MemberType {
        public Bits {
            if (width < 1 || width > 64) throw new IllegalArgumentException("bit width out of 1..64: " + width);
        }

        @Override
        public long bitWidth() {
            return width;
        }
    }

    /** An opaque byte string (e.g. a MAC address or inline header), byte-aligned. */
    record Bytes(int length) implements MemberType {
        public Bytes {
            if (length < 1) throw new IllegalArgumentException("byte array length < 1: " + length);
        }

        @Override
        public long bitWidth() {
            return 8L * length;
        }
    }

    /** A nested structure or union, placed whole at the member's offset. */
    record StructRef(QualifiedName target, long targetBits) implements MemberType {
        public StructRef {
            Objects.requireNonNull(target, "target == null");
        }

        @Override
        public long bitWidth() {
            return targetBits;
        }
    }

    /**
     * An array of {@code count} elements laid out back to back; {@code flexible} means a trailing
     * array whose length the command or queue decides at run time ({@code pas[]}), with count 0.
     */
    record Array(MemberType element, int count, boolean flexible) implements MemberType {
        public Array {
            Objects.requireNonNull(element, "element == null");
            if (element instanceof Array) throw new IllegalArgumentException("arrays of arrays are not supported");
            if (flexible ? count != 0 : count < 1) throw new IllegalArgumentException("bad array count: " + count);
        }

        @Override
        public long bitWidth() {
            return (long) count * element.bitWidth();
        }
    }
}
