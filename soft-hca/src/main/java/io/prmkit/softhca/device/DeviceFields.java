package io.prmkit.softhca.device;

import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Device-side stores into fields the driver may only read ({@code ro}/{@code out}: init segment,
 * delivery status, EQEs), through the generated layout metadata (so no offset or mask is written
 * by hand). The generator's per-struct {@code Device} setters will replace these calls.
 */
public final class DeviceFields {
    private DeviceFields() {}

    private static final Map<String, PrmLayout.Field> CACHE = new ConcurrentHashMap<>();

    public static PrmLayout.Field field(PrmLayout.Struct layout, String name) {
        return CACHE.computeIfAbsent(layout.name() + "." + name,
                k -> layout.field(name).orElseThrow(() -> new IllegalArgumentException(layout.name() + " has no field " + name)));
    }

    public static void set(PrmLayout.Struct layout, MemorySegment s, long offset, String name, long value) {
        layout.set(s, offset, field(layout, name), value);
    }

    /** Sets element {@code index} of a byte-aligned array of 32- or 64-bit fields. */
    public static void setElement(PrmLayout.Struct layout, MemorySegment s, long offset, String name, long index, long value) {
        PrmLayout.Field f = field(layout, name);
        if (f.kind() != PrmLayout.Kind.BITS_ARRAY || (f.elementBits() != 32 && f.elementBits() != 64) || (f.bitOffset() & 7) != 0) {
            throw new IllegalArgumentException(layout.name() + "." + name + " is not an array of 32- or 64-bit fields");
        }
        if (!f.flexible()) java.util.Objects.checkIndex(index, f.count());
        long at = offset + f.byteOffset() + index * f.elementBytes();
        if (f.elementBits() == 64) {
            s.set(BE_LONG, at, value);
        } else {
            s.set(BE_INT, at, (int) value);
        }
    }

    private static final java.lang.foreign.ValueLayout.OfLong BE_LONG = io.prmkit.layout.PrmLayout.BE_LONG;
    private static final java.lang.foreign.ValueLayout.OfInt BE_INT = io.prmkit.layout.PrmLayout.BE_INT;

    public static long get(PrmLayout.Struct layout, MemorySegment s, long offset, String name) {
        return layout.get(s, offset, field(layout, name));
    }
}
