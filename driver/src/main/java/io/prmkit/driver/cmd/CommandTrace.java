package io.prmkit.driver.cmd;

import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.DeliveryStatus;
import io.prmkit.layout.PrmLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * Receives one record per finished command (also failed and timed-out ones). {@link #lines} turns
 * them into one text line each, for {@code --trace}; with {@code detail} it adds the decoded input
 * and output (the generated {@code dump()} of the command's structures).
 */
@FunctionalInterface
public interface CommandTrace {

    void command(Exchange e);

    /** No tracing. */
    CommandTrace OFF = e -> { };

    /**
     * One finished command. {@code in}/{@code out} are the command's buffers (valid only during the
     * call); {@code outcome} is null on success, else the exception's message.
     */
    record Exchange(int opcode, int opMod, long inLength, long outLength, int slot, int deliveryStatus, int status,
                 int syndrome, long nanos, MemorySegment in, PrmLayout.Struct inLayout, MemorySegment out,
                 PrmLayout.Struct outLayout, String outcome) {

        /**
         * {@code ENABLE_HCA (0x104) op_mod 0x0 in=16 out=12 slot=0 status=OK time=0.085ms}; a command that went
         * through rdma-core's DEVX (no slot of ours, {@code slot} -1) says {@code via=devx} instead of its slot.
         */
        public String line() {
            String st;
            if (outcome != null && status < 0 && deliveryStatus == 0) st = "TIMEOUT";
            else if (deliveryStatus != 0) st = "DELIVERY_" + name(DeliveryStatus.nameOf(deliveryStatus), deliveryStatus);
            else st = name(CmdStatus.nameOf(status), status) + (status != 0 ? " syndrome=0x" + Integer.toHexString(syndrome) : "");
            return String.format("%s in=%d out=%d %s status=%s time=%.3fms", CommandException.commandName(opcode, opMod),
                    inLength, outLength, slot >= 0 ? "slot=" + slot : "via=devx", st, nanos / 1e6);
        }

        private static String name(String n, int v) {
            return n != null ? n : "0x" + Integer.toHexString(v);
        }

        /** The line plus the decoded input and (when it completed) output, indented. */
        public String detail() {
            StringBuilder b = new StringBuilder(line());
            if (in != null && inLayout != null) indent(b, "in:  ", inLayout.dump(in, 0));
            if (out != null && outLayout != null && deliveryStatus == 0 && status >= 0) indent(b, "out: ", outLayout.dump(out, 0));
            return b.toString();
        }

        private static void indent(StringBuilder b, String label, String text) {
            for (String l : text.split("\n")) b.append('\n').append("    ").append(label).append(l);
        }
    }

    /** A trace that writes one line (or, with {@code detail}, a block) per command to {@code sink}. */
    static CommandTrace lines(Consumer<String> sink, boolean detail) {
        return e -> sink.accept(detail ? e.detail() : e.line());
    }
}
