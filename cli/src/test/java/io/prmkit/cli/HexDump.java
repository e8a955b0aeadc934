package io.prmkit.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The hex dumps the decode tests feed {@code prmkit decode}: 16 bytes a line, as xxd, dmesg or a bare list of bytes. */
final class HexDump {
    private HexDump() {}

    /**
     * {@code b} as lines of 16 {@code " %02x"} bytes, each after {@code rowPrefix} formatted with the line's
     * offset ({@code "%08x:"} as xxd, a dmesg timestamp and device before it, or {@code ""} for none).
     */
    static String rows(byte[] b, String rowPrefix) {
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < b.length; row += 16) {
            sb.append(String.format(rowPrefix, row));
            for (int i = row; i < Math.min(row + 16, b.length); i++) sb.append(String.format(" %02x", b[i]));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Writes {@code text} to a new file in {@code dir} and returns its path, as the command line takes it. */
    static String file(Path dir, String text) throws IOException {
        Path p = Files.createTempFile(dir, "dump", ".txt");
        Files.writeString(p, text);
        return p.toString();
    }
}
