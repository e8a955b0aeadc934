package io.prmkit.softhca.cmd;

/** Reserved bits set in a command's input: delivery status RES_FLD_NOT_CLR_ERR (the command does not run). */
public final class DeliveryError extends RuntimeException {
    public final String field;

    public DeliveryError(String field) {
        super("reserved field not cleared: " + field, null, false, false);
        this.field = field;
    }
}
