package io.prmkit.mlx5.conformance;

import static io.prmkit.mlx5.PrmField.cs_flags;
import static io.prmkit.mlx5.PrmField.flow_table_metadata;
import static io.prmkit.mlx5.PrmField.inline_hdr_sz;
import static io.prmkit.mlx5.PrmField.insert_trailer;
import static io.prmkit.mlx5.PrmField.mss;
import static io.prmkit.mlx5.PrmField.svlan;
import static io.prmkit.mlx5.PrmField.swp_flags;
import static io.prmkit.mlx5.PrmField.swp_inner_l3_offset;
import static io.prmkit.mlx5.PrmField.swp_inner_l4_offset;
import static io.prmkit.mlx5.PrmField.swp_outer_l3_offset;
import static io.prmkit.mlx5.PrmField.swp_outer_l4_offset;
import static io.prmkit.mlx5.PrmField.trailer_hdr_assoc;
import static io.prmkit.mlx5.PrmField.vlan_tci;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.Property;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmField;
import io.prmkit.mlx5.WqeEthSeg;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The static stores of every structure of the bundled mlx5 spec, checked against the layout metadata
 * ({@code PrmLayout}, an implementation of its own): which structures have them and with which
 * arguments, and that for random values each store writes the bytes the generic per-field {@code set}
 * writes on a zeroed structure (the selector set to the alternative's tag) and the bytes the writer
 * writes; that {@code storeUnchecked} drops the bits that do not fit; that a value that does not fit
 * is rejected naming the field, with nothing written. Each value follows its field's name, a
 * {@code PrmField<PrmField.name>} constant, so a call is checked against the spec's field order by javac.
 */
class BundledStoresTest {

    /** One store method of a class (the structure's or its Device class) and the fields it takes. */
    record Store(String struct, Class<?> holder, Method method, Method unchecked, PrmLayout.Struct layout, List<PrmLayout.Field> params,
            Map<PrmLayout.Field, Long> tags) {
        @Override
        public String toString() {
            return holder.getSimpleName() + "." + method.getName();
        }
    }

    static List<Store> stores;

    @BeforeAll
    static void collect() throws ReflectiveOperationException {
        stores = new ArrayList<>();
        for (StructLayout s : BundledSpec.model().structs()) {
            if (!s.name().pkg().equals("mlx5")) continue; // the net headers' package has a PrmLayout of its own
            Class<?> cls = Class.forName("io.prmkit.mlx5." + upperCamel(s.name().name()));
            PrmLayout.Struct layout = (PrmLayout.Struct) cls.getMethod("layout").invoke(null);
            List<Class<?>> holders = new ArrayList<>(List.of(cls));
            Arrays.stream(cls.getDeclaredClasses()).filter(c -> c.getSimpleName().equals("Device")).forEach(holders::add);
            for (Class<?> h : holders) stores.addAll(expected(s.name().name(), h, layout, h != cls));
        }
    }

    /** The stores {@code holder} must have, worked out from the layout, each checked to exist with the right parameters. */
    private static List<Store> expected(String struct, Class<?> holder, PrmLayout.Struct layout, boolean device) throws NoSuchMethodException {
        Set<String> found = new TreeSet<>();
        for (Method m : holder.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getName().startsWith("store")) found.add(m.getName());
        }
        boolean writer = Arrays.stream(holder.getMethods()).anyMatch(m -> m.getName().equals("writer"));
        List<PrmLayout.Field> fields = layout.fields();
        boolean untagged = layout.union() || fields.stream().anyMatch(f -> f.variant().isPresent() && f.variant().get().tag().isEmpty());
        if (!writer || untagged) {
            assertEquals(Set.of(), found, holder.getName() + (writer ? " has an untagged union" : " has no writer"));
            return List.of();
        }
        // alternatives per union, in layout order; every combination of one alternative per union is a store
        Map<String, Map<String, Long>> unions = new LinkedHashMap<>();
        Set<String> selectors = new HashSet<>();
        for (PrmLayout.Field f : fields) {
            f.variant().ifPresent(v -> {
                unions.computeIfAbsent(v.union(), u -> new LinkedHashMap<>()).putIfAbsent(v.alternative(), v.tag().getAsLong());
                selectors.add(v.selector());
            });
        }
        List<Map<String, String>> combos = new ArrayList<>(List.of(new LinkedHashMap<>()));
        for (Map.Entry<String, Map<String, Long>> u : unions.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String alt : u.getValue().keySet()) {
                    Map<String, String> n = new LinkedHashMap<>(c);
                    n.put(u.getKey(), alt);
                    next.add(n);
                }
            }
            combos = next;
        }
        List<Store> out = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        for (Map<String, String> c : combos) {
            String suffix = c.values().stream().map(a -> "$" + a).reduce("", String::concat);
            List<PrmLayout.Field> params = new ArrayList<>();
            List<Class<?>> types = new ArrayList<>(List.of(MemorySegment.class, long.class));
            Map<PrmLayout.Field, Long> tags = new LinkedHashMap<>();
            for (PrmLayout.Field f : fields) {
                if (f.kind() != PrmLayout.Kind.BITS || f.reserved()) continue;
                if (selectors.contains(f.name())) {
                    for (Map.Entry<String, String> e : c.entrySet()) {
                        if (f.name().equals(fields.stream().filter(x -> x.variant().isPresent() && x.variant().get().union().equals(e.getKey()))
                                .findFirst().orElseThrow().variant().get().selector())) {
                            tags.put(f, unions.get(e.getKey()).get(e.getValue()));
                        }
                    }
                    continue;
                }
                if (!device && !f.access().writable()) continue;
                if (f.variant().isPresent() && !f.variant().get().alternative().equals(c.get(f.variant().get().union()))) continue;
                params.add(f);
                types.add(PrmField.class);
                types.add(f.bitWidth() == 1 ? boolean.class : f.bitWidth() <= 32 ? int.class : long.class);
            }
            Method m = holder.getMethod("store" + suffix, types.toArray(Class<?>[]::new));
            // each value's name is typed by its field: PrmField<PrmField.qpn> before qpn's value
            for (int i = 0; i < params.size(); i++) {
                Type t = m.getGenericParameterTypes()[2 + 2 * i];
                assertEquals(name(params.get(i).name()).getClass(), ((ParameterizedType) t).getRawType(), m + " " + i);
                assertEquals(markerTag(params.get(i).name()), ((ParameterizedType) t).getActualTypeArguments()[0], m + " " + params.get(i).name());
            }
            Method u = holder.getMethod("storeUnchecked" + suffix, types.toArray(Class<?>[]::new));
            holder.getMethod("store" + suffix, offsetFree(types)); // the form at offset 0
            holder.getMethod("storeUnchecked" + suffix, offsetFree(types));
            names.add("store" + suffix);
            names.add("storeUnchecked" + suffix);
            out.add(new Store(struct, holder, m, u, layout, params, tags));
        }
        assertEquals(names, found, holder.getName());
        return out;
    }

    /** The parameter types of the form without {@code offset}. */
    private static Class<?>[] offsetFree(List<Class<?>> types) {
        List<Class<?>> t = new ArrayList<>(types);
        t.remove(1);
        return t.toArray(Class<?>[]::new);
    }

    @Test
    void theBundledSpecHasTheStoresTheDatapathNeeds() {
        Set<String> names = new TreeSet<>();
        stores.forEach(s -> names.add(s.toString()));
        assertTrue(names.containsAll(List.of("WqeCtrlSeg.store", "WqeDataSeg.store", "WqeEthSeg.store$inline_hdr", "WqeEthSeg.store$vlan_insert",
                "Device.store$comp")), names.toString());
        assertTrue(stores.size() > 100, stores.size() + " stores");
        assertTrue(stores.stream().noneMatch(s -> s.struct().equals("cqe64")), "cqe64 has untagged unions");
    }

    @Test
    void everyStoreWritesWhatTheFieldSettersAndTheWriterWrite() {
        Property.check(8, g -> {
            for (Store st : stores) {
                long size = st.layout().sizeBytes();
                int offset = g.between(0, 8);
                int total = offset + (int) size + 8;
                long[] values = new long[st.params().size()];
                Object[] args = new Object[2 * values.length + 2];
                Object[] wide = new Object[2 * values.length + 2];
                for (int i = 0; i < values.length; i++) {
                    int w = (int) st.params().get(i).bitWidth();
                    long mask = w == 64 ? -1L : (1L << w) - 1;
                    long raw = g.anyLong();
                    values[i] = raw & mask;
                    args[2 * i + 2] = wide[2 * i + 2] = name(st.params().get(i).name());
                    args[2 * i + 3] = box(w, values[i]);
                    wide[2 * i + 3] = w == 1 ? (Object) (values[i] != 0) : w <= 32 ? (Object) (int) raw : (Object) raw;
                }

                MemorySegment stored = dirty(total);
                args[0] = stored;
                args[1] = (long) offset;
                call(st.method(), args);

                MemorySegment set = dirty(total);
                set.asSlice(offset, size).fill((byte) 0);
                for (Map.Entry<PrmLayout.Field, Long> t : st.tags().entrySet()) st.layout().set(set, offset, t.getKey(), t.getValue());
                for (int i = 0; i < values.length; i++) st.layout().set(set, offset, st.params().get(i), values[i]);
                assertArrayEquals(bytes(set), bytes(stored), st + " against the per-field set");

                MemorySegment written = dirty(total);
                Object w = call(method(st.holder(), "writer", MemorySegment.class, long.class), written, (long) offset);
                for (Map.Entry<PrmLayout.Field, Long> t : st.tags().entrySet()) setOnWriter(w, t.getKey(), t.getValue());
                for (int i = 0; i < values.length; i++) setOnWriter(w, st.params().get(i), values[i]);
                invoke(w, "write");
                assertArrayEquals(bytes(written), bytes(stored), st + " against the writer");

                MemorySegment unchecked = dirty(total);
                wide[0] = unchecked;
                wide[1] = (long) offset;
                call(st.unchecked(), wide);
                assertArrayEquals(bytes(stored), bytes(unchecked), st + " unchecked, with bits beyond each field");

                // one argument that does not fit: rejected, naming the field, nothing written
                List<Integer> narrow = new ArrayList<>();
                for (int i = 0; i < values.length; i++) {
                    long bw = st.params().get(i).bitWidth();
                    if (bw != 1 && bw != 32 && bw != 64) narrow.add(i);
                }
                if (narrow.isEmpty()) continue;
                int i = narrow.get(g.between(0, narrow.size() - 1));
                PrmLayout.Field f = st.params().get(i);
                Object[] bad = args.clone();
                MemorySegment clean = dirty(total);
                bad[0] = clean;
                bad[2 * i + 3] = f.bitWidth() < 32 ? (Object) (int) (values[i] | 1L << f.bitWidth()) : (Object) (values[i] | 1L << f.bitWidth());
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> call(st.method(), bad), st + " " + f.name());
                assertTrue(e.getMessage().startsWith(st.struct() + "." + f.name() + ": value "), e.getMessage());
                assertArrayEquals(bytes(dirty(total)), bytes(clean), st + ": a rejected store wrote");
            }
        });
    }

    @Test
    void theUnionStoresSetTheSelector() {
        MemorySegment s = MemorySegment.ofArray(new byte[16]);
        WqeEthSeg.store$vlan_insert(s, swp_outer_l4_offset, 0, swp_outer_l3_offset, 0, swp_inner_l4_offset, 0, swp_inner_l3_offset, 0,
                cs_flags, 0, swp_flags, 0, mss, 0, flow_table_metadata, 0, svlan, true, vlan_tci, 0x123);
        assertTrue(WqeEthSeg.insert_vlan(s));
        assertEquals(0x123, WqeEthSeg.vlan_tci(s));
        assertTrue(WqeEthSeg.svlan(s));
        WqeEthSeg.store$inline_hdr(s, swp_outer_l4_offset, 0, swp_outer_l3_offset, 0, swp_inner_l4_offset, 0, swp_inner_l3_offset, 0,
                cs_flags, 0, swp_flags, 0, mss, 0, flow_table_metadata, 0, insert_trailer, false, trailer_hdr_assoc, 0, inline_hdr_sz, 18);
        assertTrue(!WqeEthSeg.insert_vlan(s));
        assertEquals(18, WqeEthSeg.inline_hdr_sz(s));
        assertEquals(0, WqeEthSeg.vlan_tci(s) & 0xffff, "the inline header bytes are written as zero");
    }

    /** The {@code PrmField} constant that names field {@code field} in a store call. */
    private static PrmField<?> name(String field) {
        try {
            return (PrmField<?>) PrmField.class.getField(javaName(PrmField.class, field)).get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(field, e);
        }
    }

    /** The tag interface of {@code field}'s name. */
    private static Class<?> markerTag(String field) {
        String id = javaName(PrmField.class, field);
        return Arrays.stream(PrmField.class.getDeclaredClasses()).filter(c -> c.getSimpleName().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no tag PrmField." + id));
    }

    /** {@code field}, or {@code field_} where the spec name is a Java keyword or a name the class takes. */
    private static String javaName(Class<?> c, String field) {
        try {
            c.getField(field);
            return field;
        } catch (NoSuchFieldException e) {
            return field + "_";
        }
    }

    private static void setOnWriter(Object w, PrmLayout.Field f, long v) {
        int width = (int) f.bitWidth();
        Class<?> t = width == 1 ? boolean.class : width <= 32 ? int.class : long.class;
        Method m;
        try {
            m = w.getClass().getMethod(f.name(), t);
        } catch (NoSuchMethodException e) {
            m = method(w.getClass(), f.name() + "_", t); // a keyword or a reserved method name
        }
        try {
            m.invoke(w, box(width, v));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(f.name(), e);
        }
    }

    private static Object box(int width, long v) {
        if (width == 1) return v != 0;
        if (width <= 32) return (int) v;
        return v;
    }

    private static MemorySegment dirty(int total) {
        MemorySegment s = MemorySegment.ofArray(new byte[total]);
        s.fill((byte) 0x5a);
        return s;
    }

    private static byte[] bytes(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    private static Method method(Class<?> c, String name, Class<?>... types) {
        try {
            return c.getMethod(name, types);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(c.getName() + "." + name, e);
        }
    }

    private static Object invoke(Object target, String name) {
        try {
            return target.getClass().getMethod(name).invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(name, e);
        }
    }

    private static Object call(Method m, Object... args) {
        try {
            return m.invoke(null, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new AssertionError(e.getCause());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static String upperCamel(String name) {
        StringBuilder sb = new StringBuilder();
        boolean upper = true;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }
}
