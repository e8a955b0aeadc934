package io.prmkit.softhca.cmd;

import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;

/**
 * Finds set reserved bits in a structure from the spec's own metadata (every reserved member is
 * must-be-zero), for delivery status "reserved fields not cleared". Recurses into nested structures;
 * skips unions and union alternatives (their reserved padding aliases the other alternatives).
 */
public final class ReservedBits {
    private ReservedBits() {}

    /** The path of the first reserved member with a bit set among the first {@code limit} bytes, or null. */
    public static String firstSet(PrmLayout.Struct layout, MemorySegment s, long offset, long limit) {
        if (layout.union()) return null;
        for (PrmLayout.Field f : layout.fields()) {
            if (f.variant().isPresent()) continue;
            long start = f.byteOffset();
            long bytes = (f.bitWidth() + 7) >>> 3;
            // Bit fields are read a whole dword at a time: the dwords they touch must lie inside the limit.
            long end = f.kind() == PrmLayout.Kind.BITS ? ((f.bitOffset() + f.bitWidth() + 31) >>> 5) << 2 : start + bytes;
            if (f.flexible() || end > limit) continue;
            if (f.reserved()) {
                boolean set = switch (f.kind()) {
                    case BITS -> layout.get(s, offset, f) != 0;
                    case BITS_ARRAY -> anyElement(layout, s, offset, f);
                    default -> !zero(s, offset + start, bytes);
                };
                if (set) return layout.simpleName() + "." + f.name();
            } else if (f.kind() == PrmLayout.Kind.STRUCT && f.target().isPresent()) {
                String inner = firstSet(f.target().get(), s, offset + start, bytes);
                if (inner != null) return layout.simpleName() + "." + f.name() + "/" + inner;
            } else if (f.kind() == PrmLayout.Kind.STRUCT_ARRAY && f.target().isPresent()) {
                for (int i = 0; i < f.count(); i++) {
                    String inner = firstSet(f.target().get(), s, offset + start + i * f.elementBytes(), f.elementBytes());
                    if (inner != null) return layout.simpleName() + "." + f.name() + "[" + i + "]/" + inner;
                }
            }
        }
        return null;
    }

    private static boolean anyElement(PrmLayout.Struct layout, MemorySegment s, long offset, PrmLayout.Field f) {
        for (int i = 0; i < f.count(); i++) {
            if (layout.element(s, offset, f, i) != 0) return true;
        }
        return false;
    }

    private static boolean zero(MemorySegment s, long from, long n) {
        for (long i = 0; i < n; i++) {
            if (s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, from + i) != 0) return false;
        }
        return true;
    }
}
