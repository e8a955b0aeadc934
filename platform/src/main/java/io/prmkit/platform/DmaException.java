package io.prmkit.platform;

/** DMA memory could not be allocated or mapped; the message says which and how much. */
public final class DmaException extends RuntimeException {
    public DmaException(String message) {
        super(message);
    }
}
