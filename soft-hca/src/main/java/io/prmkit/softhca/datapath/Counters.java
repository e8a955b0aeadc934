package io.prmkit.softhca.datapath;

import io.prmkit.softhca.device.Resources;

/**
 * The datapath's counting: the vport's traffic counters (QUERY_VPORT_COUNTER; the destination MAC
 * read once per frame by the caller) and the frames the send engine could not put on the wire.
 */
final class Counters {
    private final Resources.VportCounters v;
    long txDropped;
    long txErrors;

    Counters(Resources.VportCounters v) {
        this.v = v;
    }

    void countTx(long dmac, int len) {
        v.countTx(dmac, len);
    }

    void countRx(long dmac, int len) {
        v.countRx(dmac, len);
    }

    void countRxError(int len) {
        v.countRxError(len);
    }
}
