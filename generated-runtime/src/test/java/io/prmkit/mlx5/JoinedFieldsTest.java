package io.prmkit.mlx5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.Property;
import io.prmkit.dsl.ir.Join;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The joined fields of the bundled spec ({@code join} declarations): each generated accessor for the
 * whole value equals the join of its parts done by hand, for every value of the parts (exhaustively
 * where they are few, as a property elsewhere), and the setters take a value apart into the parts the
 * same way. The parts are read and written through the layout metadata ({@code PrmLayout.Struct.get/set}
 * of each part), so the check does not rest on the join code under test; nothing here needs gcc.
 */
class JoinedFieldsTest {

    private static LayoutModel model() throws Exception {
        return PrmCompiler.compile(BundledSpecTest.bundled()).model().orElseThrow();
    }

    /** The generated class of a structure of the bundled spec (spec package p -> io.prmkit.p). */
    private static Class<?> generated(StructLayout s) throws ClassNotFoundException {
        StringBuilder camel = new StringBuilder();
        for (String w : s.name().name().split("_")) {
            if (!w.isEmpty()) camel.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
        }
        return Class.forName("io.prmkit." + s.name().pkg() + "." + camel);
    }

    private static long manualJoin(long[] parts, Join j) {
        long v = 0;
        for (int i = 0; i < parts.length; i++) v |= parts[i] << j.parts().get(i).shift();
        return v;
    }

    /** Every join of the bundled spec: the ones the tree used to join by hand are among them. */
    @Test
    void theBundledSpecDeclaresTheJoinsTheTreeUses() throws Exception {
        List<String> names = new ArrayList<>();
        for (StructLayout s : model().structs()) for (Join j : s.joins()) names.add(s.name().name() + "." + j.name());
        assertTrue(names.containsAll(Set.of("mkc.access_mode", "init_seg.cmdq_phy_addr", "init_seg.internal_timer", "cmd_pas.pa",
                "mac_address_layout.mac_addr", "eth_802_3_cntrs_grp_data_layout.a_frames_transmitted_ok", "fte_match_set_lyr_2_4.smac",
                "ethhdr.dest_mac", "ethhdr.source_mac")), names.toString());
        assertTrue(names.size() >= 100, names.size() + " joins");
    }

    /** access_mode: all 8 x 4 part values, and all 32 whole values back into the parts. */
    @Test
    void accessModeIsTheTwoPartsJoinedForEveryValue() {
        MemorySegment mkc = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
        for (int hi = 0; hi < 8; hi++) {
            for (int lo = 0; lo < 4; lo++) {
                Mkc.clear(mkc);
                Mkc.access_mode_4_2$set(mkc, hi);
                Mkc.access_mode_1_0$set(mkc, lo);
                assertEquals(hi << 2 | lo, Mkc.access_mode(mkc));
                assertEquals(MkcAccessMode.of(hi << 2 | lo), Mkc.access_mode$enum(mkc));
            }
        }
        for (int v = 0; v < 32; v++) {
            Mkc.clear(mkc);
            Mkc.lr$set(mkc, true); // a neighbour in the same dword stays
            Mkc.access_mode$set(mkc, v);
            assertEquals(v >>> 2, Mkc.access_mode_4_2(mkc));
            assertEquals(v & 3, Mkc.access_mode_1_0(mkc));
            assertTrue(Mkc.lr(mkc));
            MemorySegment w = MemorySegment.ofArray(new byte[(int) Mkc.SIZE]);
            Mkc.writer(w).lr(true).access_mode(v).write();
            assertEquals(-1L, w.mismatch(mkc), "writer and static setter agree for " + v);
        }
        Mkc.access_mode$set(mkc, MkcAccessMode.KLMS);
        assertEquals(0, Mkc.access_mode_4_2(mkc));
        assertEquals(2, Mkc.access_mode_1_0(mkc));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Mkc.access_mode$set(mkc, 32));
        assertEquals("mkc.access_mode: value 32 (0x20) does not fit in 5 bits (0..31)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mkc.writer(mkc).access_mode(-1));
    }

    /** The command queue address: bits 11..0 are no part's (4 KiB alignment); the checked setter refuses them. */
    @Test
    void cmdqAddressIsHighAndAlignedLow() {
        MemorySegment seg = MemorySegment.ofArray(new byte[(int) InitSeg.SIZE]);
        Property.check(200, g -> {
            long addr = g.note("addr", g.random().nextLong() & ~0xfffL);
            InitSeg.clear(seg);
            InitSeg.nic_interface$set(seg, 1);
            InitSeg.cmdq_phy_addr$set(seg, addr);
            assertEquals((int) (addr >>> 32), InitSeg.cmdq_phy_addr_high(seg));
            assertEquals((int) ((addr & 0xffff_ffffL) >>> 12), InitSeg.cmdq_phy_addr_low(seg));
            assertEquals(addr, InitSeg.cmdq_phy_addr(seg));
            assertEquals(1, InitSeg.nic_interface(seg));
        });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InitSeg.cmdq_phy_addr$set(seg, 0x1234_5678_9abc_d800L));
        assertEquals("init_seg.cmdq_phy_addr: value 1311768467463788544 (0x123456789abcd800) has bits outside 0xfffffffffffff000, the bits its parts hold",
                e.getMessage());
        InitSeg.cmdq_phy_addr$setUnchecked(seg, 0x1234_5678_9abc_d800L);
        assertEquals(0x1234_5678_9abc_d000L, InitSeg.cmdq_phy_addr(seg));
    }

    /**
     * Every join of the bundled spec, through its generated class: random part values (edges 0 and all
     * ones included), written part by part through the metadata, read back joined equal the hand join;
     * a whole value written joined comes back part by part; the metadata's generic join agrees.
     */
    @Test
    void everyJoinedAccessorEqualsTheManualJoinOfItsParts() throws Exception {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        int checked = 0;
        for (StructLayout s : model().structs()) {
            if (s.joins().isEmpty()) continue;
            Class<?> cls = generated(s);
            Object meta = cls.getMethod("layout").invoke(null);
            for (Join j : s.joins()) {
                Class<?> jt = j.bitWidth() > 32 ? long.class : int.class;
                MethodHandle get = lookup.findStatic(cls, j.name(), MethodType.methodType(jt, MemorySegment.class, long.class));
                Class<?> setter = j.parts().stream().allMatch(p -> s.member(p.field()).orElseThrow().access().writable()) ? cls
                        : Class.forName(cls.getName() + "$Device");
                MethodHandle set = lookup.findStatic(setter, j.name() + "$set", MethodType.methodType(void.class, MemorySegment.class, long.class, jt));
                Property.check(64, g -> {
                    long base = g.note("offset", (long) g.between(0, 3) * 8);
                    MemorySegment seg = MemorySegment.ofArray(new byte[(int) (s.sizeBytes() + base)]);
                    long[] parts = new long[j.parts().size()];
                    for (int i = 0; i < parts.length; i++) {
                        int w = j.parts().get(i).width();
                        long max = w == 64 ? -1L : (1L << w) - 1;
                        int pick = g.between(0, 3);
                        parts[i] = pick == 0 ? 0 : pick == 1 ? max : g.random().nextLong() & max;
                        setPart(meta, seg, base, j.parts().get(i).field(), parts[i]);
                    }
                    g.note("parts", java.util.Arrays.toString(parts));
                    long expected = manualJoin(parts, j);
                    long got = jt == long.class ? (long) get.invoke(seg, base) : Integer.toUnsignedLong((int) get.invoke(seg, base));
                    assertEquals(expected, got, s.name() + "." + j.name());
                    assertEquals(expected, metaGet(meta, seg, base, j.name()), "layout().get of " + j.name());

                    seg.fill((byte) 0);
                    if (jt == long.class) set.invoke(seg, base, expected);
                    else set.invoke(seg, base, (int) expected);
                    for (int i = 0; i < parts.length; i++) {
                        assertEquals(parts[i], getPart(meta, seg, base, j.parts().get(i).field()), j.name() + " part " + j.parts().get(i).field());
                    }
                });
                checked++;
            }
        }
        assertTrue(checked >= 100, checked + " joins checked");
    }

    // The metadata's generic accessors (PrmLayout differs per generated package: reached reflectively).
    private static void setPart(Object meta, MemorySegment s, long offset, String field, long v) throws Exception {
        Object f = ((java.util.Optional<?>) meta.getClass().getMethod("field", String.class).invoke(meta, field)).orElseThrow();
        call(meta, "set", new Class<?>[] {MemorySegment.class, long.class, f.getClass(), long.class}, s, offset, f, v);
    }

    private static long getPart(Object meta, MemorySegment s, long offset, String field) throws Exception {
        Object f = ((java.util.Optional<?>) meta.getClass().getMethod("field", String.class).invoke(meta, field)).orElseThrow();
        return (long) call(meta, "get", new Class<?>[] {MemorySegment.class, long.class, f.getClass()}, s, offset, f);
    }

    private static long metaGet(Object meta, MemorySegment s, long offset, String join) throws Exception {
        Object j = ((java.util.Optional<?>) meta.getClass().getMethod("join", String.class).invoke(meta, join)).orElseThrow();
        return (long) call(meta, "get", new Class<?>[] {MemorySegment.class, long.class, j.getClass()}, s, offset, j);
    }

    private static Object call(Object meta, String name, Class<?>[] types, Object... args) throws Exception {
        try {
            return meta.getClass().getMethod(name, types).invoke(meta, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }
}
