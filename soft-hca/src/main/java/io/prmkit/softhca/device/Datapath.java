package io.prmkit.softhca.device;

/**
 * What the control path needs from the datapath ({@code io.prmkit.softhca.datapath}): UAR
 * doorbells and work. {@link #NONE} serves a device without a datapath.
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

    /** A device without a datapath: EQ doorbells still work (control-path events), the rest is ignored. */
    Datapath NONE = new Datapath() {
        @Override
        public void uarWrite(int uarIndex, long offset, long value, int bytes) {}

        @Override
        public boolean poll() {
            return false;
        }
    };
}
