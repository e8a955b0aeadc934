package io.prmkit.softhca;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.softhca.cmd.Command;
import io.prmkit.softhca.cmd.CommandSpec;
import io.prmkit.softhca.cmd.Commands;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Consumer;

/**
 * Optional command tracing: every command in and out as the generated {@code dump()} decodes it,
 * followed by a hexdump in the line format of the kernel's mlx5 command trace
 * ({@code cmd[slot]: 010: 00000000 00000000 00000000 00000000}).
 */
final class Tracer {
    private final Consumer<String> sink;
    private Commands commands;

    Tracer(Consumer<String> sink) {
        this.sink = sink;
    }

    void commands(Commands commands) {
        this.commands = commands;
    }

    boolean on() {
        return sink != null;
    }

    void line(String text) {
        if (sink == null) return;
        try {
            sink.accept(text);
        } catch (RuntimeException e) {
            // the sink is the host's; its failure is not the device's
        }
    }

    /**
     * One command's input or output, decoded and as a hexdump. Takes whatever bytes the command
     * has, shorter or longer than its structure ({@code dump} reads missing bytes as zero and says
     * so), and never throws into the device: a trace that fails (a bug of ours, or a sink that
     * throws) becomes one line saying so, and the command goes on.
     */
    void command(Command c, boolean input) {
        if (sink == null) return;
        MemorySegment data = input ? c.in : c.out;
        String op = CmdOpcode.nameOf(c.opcode);
        StringBuilder b = new StringBuilder();
        try {
            b.append("cmd[").append(c.slot).append("]: dump command ").append(op == null ? "UNKNOWN" : op)
                    .append("(0x").append(Integer.toHexString(c.opcode)).append(") ").append(input ? "INPUT" : "OUTPUT").append('\n');
            CommandSpec spec = commands == null ? null : commands.specs().get(c.opcode);
            if (spec != null) {
                var layout = input ? spec.in() : spec.out();
                b.append(layout.dump(data, 0));
                if (b.charAt(b.length() - 1) != '\n') b.append('\n');
            }
            hexdump(b, c.slot, data);
        } catch (RuntimeException e) {
            b.append("cmd[").append(c.slot).append("]: ").append(TRACE_FAILED).append(e).append('\n');
        }
        try {
            sink.accept(b.toString());
        } catch (RuntimeException e) {
            // the sink is the host's; its failure is not the device's
        }
    }

    /** Starts the line a failed trace leaves (tests look for it). */
    static final String TRACE_FAILED = "trace failed: ";

    /** The kernel's dump_buf lines: offset, then four big-endian dwords per 16 bytes. */
    static void hexdump(StringBuilder b, int slot, MemorySegment data) {
        long n = data.byteSize();
        for (long off = 0; off < n; off += 16) {
            b.append("cmd[").append(slot).append("]: ").append(String.format("%03x:", off));
            for (int i = 0; i < 4; i++) {
                long at = off + 4L * i;
                int v = 0;
                for (int k = 0; k < 4; k++) {
                    v <<= 8;
                    // a hexdump shows bytes whatever the structure, so they are read as a byte stream
                    if (at + k < n) v |= data.get(ValueLayout.JAVA_BYTE, at + k) & 0xff;
                }
                b.append(String.format(" %08x", v));
            }
            b.append('\n');
        }
    }
}
