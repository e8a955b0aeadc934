package io.prmkit.softhca.device;

import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * Writes EQEs (PRM "Event Queue Entry") into the EQ that subscribes to an event type and raises the
 * EQ's MSI-X vector when it is armed (then disarms it until the next arming EQ doorbell). Device
 * thread only. An EQ whose ring is not mapped is left alone and the fault is counted.
 */
public final class Events {

    /** Raises an MSI-X vector on the device side. */
    @FunctionalInterface
    public interface Vectors {
        void raise(int vector);
    }

    /** Byte offset of the dword holding the owner bit (written last). */
    private static final long OWNER_DWORD = (Eqe.owner$BIT_OFFSET >>> 5) << 2;

    private final DeviceObjects objects;
    private final Iommu iommu;
    private final Vectors vectors;
    private long posted;
    private long dropped;

    public Events(DeviceObjects objects, Iommu iommu, Vectors vectors) {
        this.objects = objects;
        this.iommu = iommu;
        this.vectors = vectors;
    }

    /** The lowest-numbered EQ subscribed to {@code eventType}, or null. */
    public Queues.Eq subscriber(int eventType) {
        return objects.subscriber(eventType);
    }

    /**
     * Posts an event to its subscriber; {@code data} fills the event-specific fields of the zeroed
     * EQE (through the {@code Eqe.Device} setters). False when no EQ subscribes or the
     * ring faulted.
     */
    public boolean post(int eventType, int subType, Consumer<MemorySegment> data) {
        Queues.Eq eq = subscriber(eventType);
        if (eq == null) {
            dropped++;
            return false;
        }
        return post(eq, eventType, subType, data);
    }

    /** Posts an event to a given EQ. */
    public boolean post(Queues.Eq eq, int eventType, int subType, Consumer<MemorySegment> data) {
        int logSize = Eqc.log_eq_size(eq.eqc);
        int index = eq.producerCounter() & ((1 << logSize) - 1);
        MemorySegment eqe = iommu.slice(eq.ring.busAddress(index * Eqe.SIZE), Eqe.SIZE);
        if (eqe == null) {
            dropped++;
            return false;
        }
        MemorySegment staged = MemorySegment.ofArray(new byte[(int) Eqe.SIZE]);
        Eqe.Device.event_type$setUnchecked(staged, eventType);
        Eqe.Device.event_sub_type$setUnchecked(staged, subType);
        if (data != null) data.accept(staged);
        // The owner bit flips on every pass of the producer around the ring.
        Eqe.Device.owner$set(staged, ((eq.producerCounter() >>> logSize) & 1) != 0);
        // Body first, then the dword holding the owner bit, released after it.
        MemorySegment.copy(staged, 0, eqe, 0, OWNER_DWORD);
        VarHandle.releaseFence();
        MemorySegment.copy(staged, OWNER_DWORD, eqe, OWNER_DWORD, Eqe.SIZE - OWNER_DWORD);
        posted++;
        if (eq.produced()) vectors.raise(Eqc.intr(eq.eqc));
        return true;
    }

    /** The EQ doorbell (UAR 0x40 arm / 0x48 update only): consumer counter, and arming. */
    public void doorbell(int eqn, int consumerIndex, boolean arm) {
        Queues.Eq eq = objects.eq(eqn);
        if (eq == null) return;
        if (eq.doorbell(consumerIndex, arm)) vectors.raise(Eqc.intr(eq.eqc));
    }

    public long posted() {
        return posted;
    }

    public long dropped() {
        return dropped;
    }

    /** Convenience: the command-completion event for slots {@code vector}. */
    public boolean commandCompleted(int slotVector) {
        return post(EqeType.CMD$VALUE, 0,
                e -> Eqe.Device.cmd_vector$set(e, slotVector));
    }
}
