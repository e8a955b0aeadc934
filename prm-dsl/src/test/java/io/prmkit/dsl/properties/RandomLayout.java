package io.prmkit.dsl.properties;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random valid struct layout, as a list of rows each of which can be written in PRM notation
 * or sequentially. Rows tile the struct: bit fields inside one dword, 64-bit fields and byte
 * arrays on dword boundaries, reserved space anywhere a field could be.
 */
record RandomLayout(String name, List<Row> rows) {

    enum Kind { BITS, U64, BYTES }

    /** One member: where it starts (bits from the MSB of byte 0), how wide, and what it is. */
    record Row(String name, long offset, int width, Kind kind, boolean reserved) {
        String prm() {
            String n = reserved ? "reserved" : name;
            return switch (kind) {
                case BITS -> {
                    long dword = offset / 32 * 4;
                    int hi = 31 - (int) (offset % 32);
                    int lo = hi - width + 1;
                    yield String.format("0x%02x [%s] %s;", dword, hi == lo ? "" + hi : hi + ":" + lo, n);
                }
                case U64 -> String.format("0x%02x %s : u64;", offset / 8, n);
                case BYTES -> String.format("0x%02x %s : u8[%d];", offset / 8, n, width / 8);
            };
        }

        String sequential() {
            String n = reserved ? "reserved" : name;
            return switch (kind) {
                case BITS -> n + " : " + (width > 9 && width % 4 == 0 ? "0x" + Integer.toHexString(width) : "" + width) + ";";
                case U64 -> n + " : u64;";
                case BYTES -> n + " : u8[" + width / 8 + "];";
            };
        }
    }

    static RandomLayout generate(long seed, int dwords) {
        Random r = new Random(seed);
        List<Row> rows = new ArrayList<>();
        int d = 0;
        int field = 0;
        while (d < dwords) {
            int pick = r.nextInt(10);
            if (pick == 0 && d + 2 <= dwords) {
                rows.add(new Row("f" + field++, d * 32L, 64, Kind.U64, r.nextInt(8) == 0));
                d += 2;
            } else if (pick == 1) {
                int n = 1 + r.nextInt(Math.min(4, dwords - d));
                rows.add(new Row("f" + field++, d * 32L, n * 32, Kind.BYTES, false));
                d += n;
            } else {
                int bit = 0;
                while (bit < 32) {
                    int w = 1 + r.nextInt(32 - bit);
                    if (r.nextBoolean()) w = Math.min(w, 1 + r.nextInt(8));
                    boolean reserved = r.nextInt(5) == 0;
                    rows.add(new Row("f" + field++, d * 32L + bit, w, Kind.BITS, reserved));
                    bit += w;
                }
                d++;
            }
        }
        return new RandomLayout("s" + Long.toHexString(seed & 0xffff), rows);
    }

    String prmSpec(List<Row> order) {
        StringBuilder sb = new StringBuilder("package gen;\nstruct ").append(name).append(" {\n");
        for (Row row : order) sb.append("    ").append(row.prm()).append('\n');
        return sb.append("}\n").toString();
    }

    String sequentialSpec() {
        StringBuilder sb = new StringBuilder("package gen;\nstruct ").append(name).append(" {\n");
        for (Row row : rows) sb.append("    ").append(row.sequential()).append('\n');
        return sb.append("}\n").toString();
    }

    /** Each row in either notation: a placed row fixes the position, a sequential one follows the previous. */
    String mixedSpec(Random r) {
        StringBuilder sb = new StringBuilder("package gen;\nstruct ").append(name).append(" {\n");
        for (Row row : rows) sb.append("    ").append(r.nextBoolean() ? row.prm() : row.sequential()).append('\n');
        return sb.append("}\n").toString();
    }

    long sizeBits() {
        Row last = rows.get(rows.size() - 1);
        return last.offset() + last.width();
    }
}
