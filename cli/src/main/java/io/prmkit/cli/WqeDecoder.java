package io.prmkit.cli;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.WqeLayout;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.PrmWqes;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code decode --wqe} and {@code --sq}: a WQE walked segment by segment with the bundled spec's WQE
 * declarations (the generated {@code PrmWqes}), each segment's fields dumped, then every rule the
 * WQE breaks explained in a sentence with the values it read, and the rules that need a value from
 * the device ({@code --given}) that was not given. A send queue ring is read WQE by WQE from a
 * consumer counter up to the producer counter, each WQE where its counter puts it (a WQE that wraps
 * the ring's end is read across it).
 */
final class WqeDecoder {
    /** Bad input: one line. */
    static final class Bad extends Exception {
        Bad(String message) {
            super(message);
        }
    }

    /** Bytes of a send queue's basic block (the ring's unit: the producer counter counts them). */
    private static final int BASIC_BLOCK = 64;
    /** The given a send WQE's rules read its producer counter from: --sq knows it from the WQE's place in the ring. */
    static final String COUNTER_GIVEN = "wqe_counter";

    private final PrintWriter out;
    private final LayoutModel model;
    private final List<String> givens;

    WqeDecoder(PrintWriter out, LayoutModel model, List<String> givens) {
        this.out = out;
        this.model = model;
        this.givens = givens;
    }

    /** The declaration named {@code name}, or a one-line refusal that lists them. */
    PrmLayout.Wqe named(String name) throws Bad {
        PrmLayout.Wqe w = PrmWqes.byName(name);
        if (w == null) throw new Bad("unknown WQE '" + name + "' (the bundled spec declares " + names() + ")");
        return w;
    }

    private static String names() {
        return String.join(", ", PrmWqes.all().stream().map(PrmLayout.Wqe::simpleName).toList());
    }

    /** One WQE: {@code declared} or the declaration whose match holds. */
    void decodeOne(byte[] bytes, PrmLayout.Wqe declared) throws Bad {
        MemorySegment s = MemorySegment.ofArray(bytes);
        PrmLayout.Wqe w = declared != null ? declared : choose(s, 0, bytes.length);
        PrmLayout.Wqe.Context ctx = context(w);
        report(w, s, 0, bytes.length, ctx, "");
    }

    private PrmLayout.Wqe choose(MemorySegment s, long offset, long available) throws Bad {
        PrmLayout.Wqe w = PrmWqes.matching(s.asSlice(offset, Math.min(available, s.byteSize() - offset)), 0);
        if (w != null) return w;
        long least = PrmWqes.all().stream().filter(x -> x.headerBytes() > 0).mapToLong(PrmLayout.Wqe::headerBytes).min().orElse(0);
        if (available < least) {
            throw new Bad("the input has " + Words.plural(available, "byte") + "; the shortest declared send WQE starts with " + least
                    + " (its leading segments)");
        }
        StringBuilder which = new StringBuilder();
        for (WqeLayout d : model.wqes()) {
            if (d.match().isEmpty()) continue;
            which.append(which.length() == 0 ? "" : "; ").append(d.name().name()).append(" when ").append(d.match().get().source());
        }
        throw new Bad("no declared WQE matches these bytes (" + which + "); name the WQE: prmkit decode --wqe NAME FILE with NAME one of " + names());
    }

    /** A send queue ring: the WQEs from {@code cc} up to {@code pc} (16-bit counters of basic blocks). */
    void decodeRing(byte[] bytes, long pc, Long ccGiven) throws Bad {
        if (bytes.length < BASIC_BLOCK || Integer.bitCount(bytes.length / BASIC_BLOCK) != 1 || bytes.length % BASIC_BLOCK != 0) {
            throw new Bad("a send queue ring is a power of two of " + BASIC_BLOCK + "-byte basic blocks; the input has " + bytes.length + " bytes");
        }
        int slots = bytes.length / BASIC_BLOCK;
        long cc = ccGiven != null ? ccGiven : Math.max(0, pc - slots);
        long posted = (pc - cc) & 0xffff;
        if (posted > slots) throw new Bad("--cc 0x" + Long.toHexString(cc) + " is " + posted + " basic blocks behind --pc 0x" + Long.toHexString(pc)
                + ", more than the ring's " + slots);
        out.println("SQ ring: " + slots + " basic blocks of " + BASIC_BLOCK + " bytes; WQEs from counter 0x" + Long.toHexString(cc & 0xffff)
                + " up to the producer counter 0x" + Long.toHexString(pc & 0xffff) + " (" + posted + " basic blocks)");
        // the ring twice over: a WQE that wraps the end is read across it
        byte[] twice = new byte[bytes.length * 2];
        System.arraycopy(bytes, 0, twice, 0, bytes.length);
        System.arraycopy(bytes, 0, twice, bytes.length, bytes.length);
        MemorySegment s = MemorySegment.ofArray(twice);
        long c = cc;
        int wqes = 0;
        while (((pc - c) & 0xffff) != 0 && ((c - cc) & 0xffff) < posted) {
            int slot = (int) (c & (slots - 1));
            long left = ((pc - c) & 0xffff) * BASIC_BLOCK;
            out.println();
            out.println("WQE at counter 0x" + Long.toHexString(c & 0xffff) + " (basic block " + slot + ", offset 0x" + Integer.toHexString(slot * BASIC_BLOCK) + "):");
            PrmLayout.Wqe w;
            try {
                w = choose(s, (long) slot * BASIC_BLOCK, left);
            } catch (Bad b) {
                out.println("  " + b.getMessage());
                out.println("  (the walk stops here: without a declaration the WQE's size is unknown)");
                return;
            }
            PrmLayout.Wqe.Context ctx = context(w);
            // the ring says what the WQE's counter is
            if (w.givens().stream().anyMatch(g -> g.name().equals(COUNTER_GIVEN))) ctx = ctx.with(COUNTER_GIVEN, c);
            PrmLayout.Wqe.Report r = report(w, s, (long) slot * BASIC_BLOCK, left, ctx, "  ");
            wqes++;
            long bbs = r.size() > 0 ? (r.size() + BASIC_BLOCK - 1) / BASIC_BLOCK : 1;
            c = (c + bbs) & 0xffff;
        }
        out.println();
        out.println(Words.plural(wqes, "WQE") + " decoded");
    }

    /** Prints the walk and the rules; returns the report. */
    private PrmLayout.Wqe.Report report(PrmLayout.Wqe w, MemorySegment s, long offset, long available, PrmLayout.Wqe.Context ctx, String indent) {
        PrmLayout.Wqe.Report r = w.check(s, offset, available, ctx);
        out.println(indent + "WQE " + w.simpleName() + (w.prmRef().isEmpty() ? "" : " (" + w.prmRef() + ")") + ": "
                + (r.size() >= 0 ? r.size() + " bytes (" + w.sizeExpression() + ")" : "size unknown (" + w.sizeExpression() + ")"));
        for (PrmLayout.Wqe.Placed p : r.segments()) {
            long at = offset + p.offset();
            out.println(indent + "segment " + p.label() + " at 0x" + Long.toHexString(p.offset()) + ": "
                    + (p.struct() == null ? p.bytes() + " bytes inline" : p.struct().simpleName() + ", " + p.bytes() + " bytes"));
            if (p.struct() == null) {
                hex(s, at, p.bytes(), indent + "  ");
            } else {
                long bytes = Math.min(Math.max(p.bytes(), p.struct().sizeBytes()), s.byteSize() - at);
                String dump = p.struct().dump(s.asSlice(at, bytes), 0);
                for (String line : dump.split("\n")) {
                    if (line.startsWith(p.struct().simpleName() + " (")) continue; // the segment line said it
                    out.println(indent + line);
                }
            }
        }
        if (!r.truncated().isEmpty()) out.println(indent + "(" + r.truncated() + ")");
        int rules = w.rules().size() + 1;
        if (r.broken().isEmpty()) {
            out.println(indent + "rules: none broken (" + (rules - r.unchecked().size()) + " of " + rules + " checked)");
        } else {
            out.println(indent + "rules: " + Words.plural(r.broken().size(), "broken rule"));
            for (PrmLayout.Wqe.Broken b : r.broken()) out.println(indent + "  " + sentence(b));
        }
        for (String u : r.unchecked()) out.println(indent + "  not checked: " + u + hint(u));
        return r;
    }

    /** {@code Rule lso_needs_mss is broken: an LSO WQE needs a non-zero mss; here ctrl.opcode = 0xe (LSO), eth.mss = 0.} */
    static String sentence(PrmLayout.Wqe.Broken b) {
        return "rule " + b.rule() + " is broken" + (b.where().isEmpty() ? "" : " by " + b.where()) + ": " + b.message()
                + (b.values().isEmpty() ? "" : "; here " + String.join(", ", b.values())) + ".";
    }

    private static String hint(String unchecked) {
        int needs = unchecked.indexOf(": needs ");
        if (needs < 0) return "";
        String what = unchecked.substring(needs + ": needs ".length());
        int paren = what.indexOf('(');
        return paren > 0 ? " (give it: --given '" + what + ".FIELD=VALUE')" : " (give it: --given " + what + "=VALUE)";
    }

    private void hex(MemorySegment s, long at, long n, String indent) {
        HexFormat hf = HexFormat.of();
        for (long i = 0; i < n; i += 16) {
            StringBuilder sb = new StringBuilder(indent).append(String.format("%04x ", i));
            for (long k = i; k < Math.min(n, i + 16); k++) sb.append(' ').append(hf.toHexDigits(s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + k)));
            out.println(sb);
        }
    }

    /**
     * The values {@code --given} supplies for {@code w}: {@code NAME=VALUE} (a number, or a value name of
     * the given's enum) and {@code NAME(KEY).FIELD=VALUE} for a structure looked up by key.
     */
    PrmLayout.Wqe.Context context(PrmLayout.Wqe w) throws Bad {
        PrmLayout.Wqe.Context ctx = PrmLayout.Wqe.Context.none();
        Map<String, Map<Long, MemorySegment>> lookups = new HashMap<>();
        for (String g : givens) {
            int eq = g.indexOf('=');
            if (eq <= 0) throw new Bad("--given " + g + ": write NAME=VALUE or NAME(KEY).FIELD=VALUE");
            String lhs = g.substring(0, eq).strip();
            String rhs = g.substring(eq + 1).strip();
            int paren = lhs.indexOf('(');
            String name = paren < 0 ? lhs : lhs.substring(0, paren);
            Optional<PrmLayout.Wqe.Given> given = w.givens().stream().filter(x -> x.name().equals(name)).findFirst();
            if (given.isEmpty()) {
                // a value for another WQE's given is no error: --sq walks several kinds with one set
                if (PrmWqes.all().stream().anyMatch(x -> x.givens().stream().anyMatch(y -> y.name().equals(name)))) continue;
                throw new Bad("--given " + g + ": no WQE of the bundled spec needs '" + name + "'");
            }
            PrmLayout.Wqe.Given gv = given.get();
            if (gv.lookup() == null) {
                if (paren >= 0) throw new Bad("--given " + g + ": '" + name + "' is a value, write " + name + "=VALUE");
                ctx = ctx.with(name, value(rhs, gv.enumType(), g));
                continue;
            }
            int close = lhs.indexOf(')', paren);
            if (paren < 0 || close < 0 || close + 1 >= lhs.length() || lhs.charAt(close + 1) != '.') {
                throw new Bad("--given " + g + ": '" + name + "' looks up a " + gv.lookup().simpleName() + " by key: write " + name + "(KEY).FIELD=VALUE");
            }
            long key = number(lhs.substring(paren + 1, close).strip(), g);
            String field = lhs.substring(close + 2);
            PrmLayout.Field f = gv.lookup().field(field).filter(x -> x.kind() == PrmLayout.Kind.BITS)
                    .orElseThrow(() -> new Bad("--given " + g + ": '" + field + "' is not a bit field of " + gv.lookup().simpleName()));
            MemorySegment m = lookups.computeIfAbsent(name, k -> new HashMap<>())
                    .computeIfAbsent(key, k -> MemorySegment.ofArray(new byte[(int) gv.lookup().sizeBytes()]));
            try {
                gv.lookup().set(m, 0, f, number(rhs, g));
            } catch (IllegalArgumentException e) {
                throw new Bad("--given " + g + ": " + e.getMessage());
            }
        }
        for (Map.Entry<String, Map<Long, MemorySegment>> e : lookups.entrySet()) {
            Map<Long, MemorySegment> byKey = e.getValue();
            ctx = ctx.with(e.getKey(), byKey::get);
        }
        return ctx;
    }

    private long value(String text, String enumType, String option) throws Bad {
        if (!enumType.isEmpty() && !text.isEmpty() && !Character.isDigit(text.charAt(0))) {
            EnumLayout e = model.enums().stream().filter(x -> x.name().toString().equals(enumType)).findFirst().orElse(null);
            if (e != null) {
                for (EnumLayout.EnumValue v : e.values()) if (v.name().equalsIgnoreCase(text)) return v.value();
                throw new Bad("--given " + option + ": '" + text + "' is not a value of " + e.name().name() + " ("
                        + String.join(", ", e.values().stream().map(EnumLayout.EnumValue::name).toList()) + ")");
            }
        }
        return number(text, option);
    }

    /** A decimal or 0x-hex number. */
    static long number(String text, String option) throws Bad {
        try {
            String t = text.toLowerCase(Locale.ROOT);
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new Bad(option + ": '" + text + "' is not a number (decimal or 0x hex)");
        }
    }
}
