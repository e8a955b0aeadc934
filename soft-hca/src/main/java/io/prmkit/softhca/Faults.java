package io.prmkit.softhca;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdStatus;
import io.prmkit.mlx5.HealthSyndrome;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Faults a test injects into the device. Command faults apply to the next matching command; device
 * faults (health, pages, link) are carried out on the device side at its next step.
 */
public final class Faults {
    private final SoftHca device;
    private final Map<Integer, Deque<int[]>> failures = new ConcurrentHashMap<>();
    private final Set<Integer> never = ConcurrentHashMap.newKeySet();

    Faults(SoftHca device) {
        this.device = device;
    }

    /** The next command with {@code opcode} completes (delivery OK) with {@code status} and {@code syndrome}, without running. */
    public Faults failNext(CmdOpcode opcode, CmdStatus status, int syndrome) {
        failures.computeIfAbsent((int) opcode.value, k -> new ArrayDeque<>()).add(new int[] {(int) status.value, syndrome});
        return this;
    }

    /** Commands with {@code opcode} are taken from the queue and never completed (the driver's timeout path); false undoes it. */
    public Faults neverComplete(CmdOpcode opcode, boolean on) {
        if (on) never.add((int) opcode.value);
        else never.remove((int) opcode.value);
        return this;
    }

    /** Raises a fatal health syndrome: the device stops (no more completions, the heartbeat stops). */
    public Faults fatal(HealthSyndrome syndrome) {
        device.submit(() -> device.fatal((int) syndrome.value, SoftInitSegment.EXT_SYND_INJECTED));
        return this;
    }

    /** The device asks for {@code pages} more pages (negative: gives that many back) with a page-request event. */
    public Faults requestPages(int pages) {
        device.submit(() -> device.pageRequest(pages));
        return this;
    }

    /** Takes the link down or up, with a port change event. */
    public Faults link(boolean up) {
        device.submit(() -> device.link(up));
        return this;
    }

    /** The next {@code frames} frames on port 1's wire vanish (counted by the wire). */
    public Faults dropFrames(int frames) {
        wire().dropNext(frames);
        return this;
    }

    /**
     * The next {@code frames} frames on port 1's wire arrive damaged: {@code FCS} ones are dropped by
     * the receiving MAC (PPCNT FCS errors), {@code PAYLOAD} ones are delivered with a failing checksum.
     */
    public Faults corruptFrames(int frames, io.prmkit.softhca.wire.Wire.Corruption how) {
        wire().corruptNext(frames, how);
        return this;
    }

    /**
     * The {@code nth} WQE (1 = the next) that SQ {@code sqn} executes fails with an error CQE of
     * {@code syndrome} (vendor syndrome 0x7f), and the SQ goes to ERR.
     */
    public Faults failWqe(int sqn, long nth, io.prmkit.mlx5.CqeErrorSyndrome syndrome) {
        device.datapath().failWqe(sqn, nth, (int) syndrome.value);
        return this;
    }

    private io.prmkit.softhca.wire.Wire wire() {
        io.prmkit.softhca.wire.Wire w = device.port().wire();
        if (w == null) throw new IllegalStateException("port 1 is not plugged into a wire");
        return w;
    }

    boolean neverComplete(int opcode) {
        return never.contains(opcode);
    }

    /** {status, syndrome} to answer the next {@code opcode} with, or null. */
    int[] takeFailure(int opcode) {
        Deque<int[]> q = failures.get(opcode);
        if (q == null) return null;
        synchronized (q) {
            return q.poll();
        }
    }
}
