package io.prmkit.hex;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the bytes of a hex dump as people paste them: plain hex ({@code 00 00 04 00},
 * {@code 00000400 00000000}, {@code 0x0400}), {@code xxd}, {@code hexdump -C} and {@code od -Ax -tx1}
 * (including their {@code *} lines for repeated rows) and the kernel's {@code print_hex_dump} lines,
 * with or without an offset or address column, a log prefix ({@code [  12.345] mlx5_core 0000:08:00.0: })
 * or an ASCII column. Kernel log lines without hex around a dump (the driver's "Error cqe on cqn ..."
 * before print_hex_dump's rows) are skipped. Multi-byte groups are read in the order their digits are
 * written (the PRM's big-endian order), unless {@code littleEndianGroups} says they were printed as
 * little-endian numbers (the kernel's print_hex_dump with groupsize 2, 4 or 8 on x86, {@code xxd -e}).
 *
 * <p>An offset column without a colon (hexdump -C, od) is told from data by its shape: a group of
 * four or more digits followed by single bytes. It is taken as offsets only when the next row's
 * offset (or the dump's last line, its length) follows from it; a lone such row is refused, since
 * reading offsets as data (or data as offsets) gives a wrong decode that looks right.
 * Lines starting with {@code #} are comments. Every problem is a {@link BadHex} naming the line.
 *
 * <p>Shared by {@code prmkit decode} and the soft HCA's {@code CapsProfile.fromRawPages} (a card's
 * QUERY_HCA_CAP outputs as captured), so both read the same dumps the same way.
 */
public final class HexInput {

    /** A dump that cannot be read: one line for the user, {@code file:line: error: why} like every file problem of the CLI. */
    public static final class BadHex extends Exception {
        BadHex(String where, String why) {
            super(where + ": error: " + why);
        }
    }

    private static final Pattern TIMESTAMP = Pattern.compile("^\\s*\\[\\s*\\d+\\.\\d+\\]\\s*");
    /**
     * hexdump -C (an offset, two spaces, byte pairs, an ASCII column between bars) and od -Ax -tx1
     * (an offset, one space, byte pairs, with -tx1z an ASCII column between {@code >} and {@code <});
     * either without its ASCII column.
     */
    private static final Pattern OFFSET_BYTES = Pattern.compile(
            "^((?:[0-9a-fA-F]{2}){2,8}) {1,2}((?:[0-9a-fA-F]{2} {1,2})*[0-9a-fA-F]{2})(?:\\s+(?:\\|.*\\||>.*<))?\\s*$");
    /** A syslog or journal prefix: {@code Dec 05 00:11:59 host kernel: }. */
    private static final Pattern JOURNAL = Pattern.compile("^.*?\\skernel:\\s+");
    /** A device's PCI address, as the kernel's dev_*() and netdev_*() messages start. */
    private static final Pattern DEVICE = Pattern.compile("\\b[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]\\b");
    private static final Pattern FIRST_PREFIX = Pattern.compile("^.*?:\\s+");
    private static final Pattern HEXDUMP_END = Pattern.compile("^[0-9a-fA-F]{4,16}\\s*$");
    /** An offset or address column ending in a colon, after any prefix that ends in ": ". */
    private static final Pattern ADDRESSED = Pattern.compile("^(?:.*?:\\s+)??(?:0x)?([0-9a-fA-F]{1,16}):\\s+(\\S.*)$");
    private static final Pattern PREFIXED = Pattern.compile("^.*?:\\s+((?:0x)?[0-9a-fA-F]+(?:\\s.*)?)$");
    private static final Pattern GROUP = Pattern.compile("(?:0x)?([0-9a-fA-F]+),?");

    private HexInput() {
    }

    /**
     * The bytes of {@code text}, a dump in one of the formats above; {@code source} names it in
     * errors ({@code source:line: error: why}).
     */
    public static byte[] parse(String text, String source, boolean littleEndianGroups) throws BadHex {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] lines = text.split("\r?\n", -1);
        long base = -1;
        byte[] previous = null;
        boolean repeat = false;
        String star = null; // where the last '*' is, for errors about the rows it stands for
        // where a colon-less offset column starts while no later offset has confirmed it, else null
        String unconfirmed = null;
        String firstOffset = null;
        for (int i = 0; i < lines.length; i++) {
            String where = source + ":" + (i + 1);
            Matcher stamp = TIMESTAMP.matcher(lines[i]);
            boolean logged = stamp.find();
            String line = (logged ? lines[i].substring(stamp.end()) : lines[i]).stripTrailing();
            Matcher journal = JOURNAL.matcher(line);
            if (journal.find()) {
                logged = true;
                line = line.substring(journal.end());
            }
            logged |= DEVICE.matcher(line).find();
            if (line.isBlank() || line.stripLeading().startsWith("#")) continue;
            if (line.strip().equals("*")) {
                if (previous == null) throw new BadHex(where, "'*' (hexdump's repeated rows) before any row");
                if (base < 0) throw new BadHex(where, "'*' needs offsets to say how many rows it stands for");
                repeat = true;
                star = where;
                continue;
            }
            Matcher c = OFFSET_BYTES.matcher(line);
            Matcher end = HEXDUMP_END.matcher(line);
            long address;
            String data;
            boolean colonless = false;
            if (c.matches()) {
                address = Long.parseUnsignedLong(c.group(1), 16);
                data = c.group(2);
                colonless = true;
            } else if (end.matches() && (base >= 0 || repeat)) {
                // hexdump's and od's last line: the total length, which ends a run of '*'
                address = Long.parseUnsignedLong(line.strip(), 16);
                data = "";
            } else {
                Matcher a = ADDRESSED.matcher(line);
                if (a.matches() && startsWithHex(a.group(2))) {
                    address = Long.parseUnsignedLong(a.group(1), 16);
                    // xxd and print_hex_dump separate groups by one space and the ASCII column by two or more
                    data = a.group(2).split("\\s{2,}", 2)[0];
                } else {
                    Matcher p = PREFIXED.matcher(line);
                    data = p.matches() && !allHex(line) ? asciiColumnRemoved(p.group(1)) : line;
                    address = -1;
                    // the kernel's text lines around a dump ("Error cqe on cqn ...") carry no bytes after the device's prefix
                    if (logged && !allHex(asciiColumnRemoved(FIRST_PREFIX.matcher(line).replaceFirst("")))) continue;
                    if (base >= 0) throw new BadHex(where, "expected an offset column like the lines before, found '" + shorten(line) + "'");
                }
            }
            if (address >= 0) {
                if (base < 0) {
                    if (out.size() > 0) throw new BadHex(where, "an offset column appears after lines without one");
                    base = address;
                    if (colonless) {
                        unconfirmed = where;
                        firstOffset = c.group(1);
                    }
                } else {
                    unconfirmed = null;
                }
                long expected = base + out.size();
                if (repeat) {
                    // hexdump -C printed '*' for rows equal to the previous one, up to this address
                    while (base + out.size() < address) out.write(previous, 0, previous.length);
                    if (base + out.size() != address) {
                        throw new BadHex(where, "offset " + hex(address) + " does not end the run of repeated rows that '*' at line "
                                + star.substring(star.lastIndexOf(':') + 1) + " stands for (rows of " + previous.length + " bytes from "
                                + hex(expected) + ")");
                    }
                    repeat = false;
                } else if (address != expected) {
                    throw new BadHex(where, "offset " + hex(address) + " where " + hex(expected) + " was expected (a line missing or repeated?)");
                }
            } else if (repeat) {
                throw new BadHex(where, "'*' needs offsets to say how many rows it stands for");
            }
            byte[] row = bytes(data, where, littleEndianGroups);
            out.write(row, 0, row.length);
            if (row.length > 0) previous = row;
        }
        if (repeat) throw new BadHex(star, "the dump ends in '*' without the final offset that says how long it is");
        if (unconfirmed != null) {
            throw new BadHex(unconfirmed, "'" + firstOffset + "' may be an offset column (hexdump -C or od -Ax -tx1) or data, and nothing after it says which: "
                    + "keep the dump's last line (its length), or remove the offsets");
        }
        if (out.size() == 0) throw new BadHex(source, "no hex bytes in the input");
        return out.toByteArray();
    }

    /** The hex groups of a line's data part, each an even number of digits. */
    private static byte[] bytes(String data, String where, boolean littleEndianGroups) throws BadHex {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String token : data.trim().split("\\s+")) {
            if (token.isEmpty()) continue;
            Matcher g = GROUP.matcher(token);
            if (!g.matches()) throw new BadHex(where, "'" + shorten(token) + "' is not hex");
            String digits = g.group(1);
            if (digits.length() % 2 != 0) {
                // hexdump without -C and od without -Ax start lines with a 7-digit offset (octal for od), which cannot be told from data
                String hint = digits.length() == 7 && data.trim().startsWith(token) ? "; od or plain hexdump output? use od -Ax -tx1, hexdump -C or xxd" : "";
                throw new BadHex(where, "'" + shorten(token) + "' has an odd number of hex digits (" + digits.length() + ")" + hint);
            }
            int n = digits.length() / 2;
            byte[] group = new byte[n];
            for (int k = 0; k < n; k++) group[k] = (byte) Integer.parseInt(digits, 2 * k, 2 * k + 2, 16);
            for (int k = 0; k < n; k++) out.write(group[littleEndianGroups ? n - 1 - k : k]);
        }
        return out.toByteArray();
    }

    /**
     * Drops an ASCII column from a line without offsets (print_hex_dump with DUMP_PREFIX_NONE): it
     * follows the hex after two or more spaces. What follows the gap is kept when it is all hex
     * (plain hex written with wider gaps), so no data is dropped.
     */
    private static String asciiColumnRemoved(String data) {
        Matcher gap = Pattern.compile("\\s{2,}").matcher(data);
        if (!gap.find()) return data;
        String rest = data.substring(gap.end());
        return allHex(rest) ? data : data.substring(0, gap.start());
    }

    private static boolean allHex(String s) {
        for (String t : s.trim().split("\\s+")) {
            if (!t.isEmpty() && !GROUP.matcher(t).matches()) return false;
        }
        return true;
    }

    private static boolean startsWithHex(String s) {
        return GROUP.matcher(s.split("\\s+", 2)[0]).matches();
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** For messages: the dump's formats, as the help text names them. */
    public static List<String> formats() {
        return new ArrayList<>(List.of("plain hex", "xxd", "hexdump -C", "od -Ax -tx1", "print_hex_dump (with or without offset/address)"));
    }
}
