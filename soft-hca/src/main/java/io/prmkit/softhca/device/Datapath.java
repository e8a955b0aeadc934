package io.prmkit.softhca.device;

/**
 * What the control path needs from the datapath ({@code io.prmkit.softhca.datapath}): UAR
 * doorbells and work.
 */
public interface Datapath {

    /**
     * A store of {@code bytes} (4 or 8) bytes to UAR page {@code uarIndex} at {@code offset}
     * (value as the big-endian register value). Called on the driver's thread inside its MMIO store:
     * record it, then {@link DeviceContext#wake()}; do the work in {@link #poll()}.
     */
    void uarWrite(int uarIndex, long offset, long value, int bytes);

    /** Does pending datapath work on the device thread; true when anything was done. */
    boolean poll();

    /**
     * Sends a line per notable datapath event (a compressed CQE session written, a failed WQE with its
     * syndrome and control segment) to {@code sink} (null: none). A datapath without events ignores it.
     */
    default void trace(java.util.function.Consumer<String> sink) {}

    /**
     * Makes the {@code nth} WQE (1 = the next one) that SQ {@code sqn} executes from now on fail with
     * an error CQE of {@code syndrome}, as a device fault would.
     *
     * @throws IllegalStateException when this datapath executes no WQEs
     */
    default void failWqe(int sqn, long nth, int syndrome) {
        throw new IllegalStateException("WQE faults need a datapath that executes WQEs");
    }

    /**
     * A link fault: takes the carrier of the wire this datapath's port is plugged into down or up, and
     * returns true; the datapath then posts the port change event when it sees the change. False
     * (nothing done) when it has no wire: the device posts the event itself.
     */
    default boolean setCarrier(boolean up) {
        return false;
    }
}
