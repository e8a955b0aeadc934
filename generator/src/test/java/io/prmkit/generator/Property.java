package io.prmkit.generator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Property checks in plain JUnit (the same helper as prm-dsl's io.prmkit.dsl.Property; test classes
 * are not shared between modules): a body runs once per try on a {@link Gen} seeded for that try.
 * <p>
 * Seeds: try 0 uses the start seed, every later try the next value of a SplitMix64 sequence. The
 * start seed is {@code -Dprmkit.seed} if given (decimal or 0x-hex; {@code random} picks a new
 * one), else a fixed value derived from the test's name, so CI runs the same cases every time.
 * A failing try is reported with its own seed: {@code -Dprmkit.seed=<that> -Dprmkit.tries=1}
 * replays exactly that case. {@code -Dprmkit.tries=N} overrides every property's try count.
 * <p>
 * There is no shrinking; generators keep cases small where they can, and the failure message lists
 * every generated value the body recorded with {@link Gen#note}.
 */
final class Property {
    private static final long DEFAULT_SEED = 0x7072_6d6b_6974_0001L;

    private Property() {
    }

    /** The property's body; any exception it throws fails the try. */
    @FunctionalInterface
    public interface Body {
        void run(Gen g) throws Throwable;
    }

    /** Runs {@code body} {@code tries} times (or {@code -Dprmkit.tries}); returns how many tries ran. */
    public static int check(int tries, Body body) {
        StackWalker.StackFrame caller = StackWalker.getInstance().walk(s -> s.skip(1).findFirst()).orElseThrow();
        String cls = caller.getClassName();
        String test = cls.substring(cls.lastIndexOf('.') + 1) + "#" + caller.getMethodName();
        int n = Integer.getInteger("prmkit.tries", tries);
        if (n < 1) throw new IllegalArgumentException("prmkit.tries must be at least 1, is " + n);
        long seed = startSeed(test);
        for (int i = 0; i < n; i++, seed = next(seed)) {
            Gen g = new Gen(seed);
            try {
                body.run(g);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError(test + ": try " + (i + 1) + " of " + n + " failed with seed " + hex(seed)
                        + "\n  replay: -Dprmkit.seed=" + hex(seed) + " -Dprmkit.tries=1 -D" + (cls.endsWith("IT") ? "it.test=" : "test=") + test
                        + "\n  case:" + g.describe()
                        + "\n  failure: " + t, t);
            }
        }
        return n;
    }

    static long startSeed(String test) {
        String p = System.getProperty("prmkit.seed");
        if (p == null || p.isBlank()) return mix(DEFAULT_SEED ^ test.hashCode());
        if (p.equals("random")) return mix(System.nanoTime() ^ test.hashCode());
        p = p.strip();
        return p.startsWith("0x") || p.startsWith("0X") ? Long.parseUnsignedLong(p.substring(2), 16) : Long.parseLong(p);
    }

    static String hex(long seed) {
        return "0x" + Long.toHexString(seed);
    }

    /** SplitMix64: the next seed in the sequence. */
    static long next(long seed) {
        return mix(seed + 0x9e3779b97f4a7c15L);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * Random choices for one try. Numbers come with an edge-case bias: about one draw in eight is
     * a bound or its neighbour (or a given extra edge), so small ranges hit their ends within a
     * few tries and large ones still do over a run.
     */
    public static final class Gen {
        private final SplittableRandom r;
        private final Map<String, Object> notes = new LinkedHashMap<>();

        Gen(long seed) {
            this.r = new SplittableRandom(seed);
        }

        /** The underlying generator, for choices that need no edge bias. */
        public SplittableRandom random() {
            return r;
        }

        /** Records a generated value (or the case built from it) for the failure message; returns it. */
        public <T> T note(String label, T value) {
            notes.put(label, value);
            return value;
        }

        /** An int in [min, max]; one draw in eight is min, min+1, max-1, max or one of {@code edges}. */
        public int between(int min, int max, int... edges) {
            if (min > max) throw new IllegalArgumentException(min + " > " + max);
            if (r.nextInt(8) == 0) {
                List<Integer> e = new ArrayList<>(List.of(min, max));
                if (max - min >= 2) {
                    e.add(min + 1);
                    e.add(max - 1);
                }
                for (int x : edges) if (x >= min && x <= max) e.add(x);
                return e.get(r.nextInt(e.size()));
            }
            return r.nextInt(min, max + 1);
        }

        public int between(String label, int min, int max, int... edges) {
            return note(label, between(min, max, edges));
        }

        /**
         * A collection size in [min, max], mostly small so that a failing case stays readable: one draw
         * in eight min or max, five in eight in the lowest fifth of the range (at least min..min+4),
         * the rest anywhere.
         */
        public int size(int min, int max) {
            int pick = r.nextInt(8);
            if (pick == 0) return r.nextBoolean() ? min : max;
            if (pick <= 5) return r.nextInt(min, Math.min(max, min + Math.max(4, (max - min) / 5)) + 1);
            return r.nextInt(min, max + 1);
        }

        private static final long[] LONG_EDGES = {0, 1, -1, 2, -2, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1};

        /** Any long: one draw in eight an edge (0, ±1, ±2, MIN, MAX and neighbours), one in eight small (|v| <= 1000). */
        public long anyLong() {
            return switch (r.nextInt(8)) {
                case 0 -> LONG_EDGES[r.nextInt(LONG_EDGES.length)];
                case 1 -> r.nextLong(-1000, 1001);
                default -> r.nextLong();
            };
        }

        public long anyLong(String label) {
            return note(label, anyLong());
        }

        public boolean bool(String label) {
            return note(label, r.nextBoolean());
        }

        @SafeVarargs
        public final <T> T oneOf(T... values) {
            return values[r.nextInt(values.length)];
        }

        String describe() {
            if (notes.isEmpty()) return " (nothing recorded)";
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, Object> e : notes.entrySet()) {
                String v = String.valueOf(e.getValue());
                sb.append("\n    ").append(e.getKey()).append(" = ");
                sb.append(v.contains("\n") ? "\n      " + v.strip().replace("\n", "\n      ") : v);
            }
            return sb.toString();
        }
    }
}
