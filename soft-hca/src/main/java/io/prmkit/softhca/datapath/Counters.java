package io.prmkit.softhca.datapath;

import io.prmkit.softhca.device.Resources;
import io.prmkit.softhca.wire.ParsedFrame;

/**
 * The vport's traffic counters (QUERY_VPORT_COUNTER), counted per frame by the datapath on the
 * device thread: unicast, multicast and broadcast by destination MAC (read once per frame by the
 * caller), bytes without FCS.
 */
final class Counters {
    private final Resources.VportCounters v;
    long txDropped;
    long txErrors;

    Counters(Resources.VportCounters v) {
        this.v = v;
    }

    void countTx(long dmac, int len) {
        if (ParsedFrame.isBroadcast(dmac)) {
            v.txBroadcastPackets++;
            v.txBroadcastOctets += len;
        } else if (ParsedFrame.isMulticast(dmac)) {
            v.txMulticastPackets++;
            v.txMulticastOctets += len;
        } else {
            v.txUnicastPackets++;
            v.txUnicastOctets += len;
        }
    }

    void countRx(long dmac, int len) {
        if (ParsedFrame.isBroadcast(dmac)) {
            v.rxBroadcastPackets++;
            v.rxBroadcastOctets += len;
        } else if (ParsedFrame.isMulticast(dmac)) {
            v.rxMulticastPackets++;
            v.rxMulticastOctets += len;
        } else {
            v.rxUnicastPackets++;
            v.rxUnicastOctets += len;
        }
    }

    void countRxError(int len) {
        v.rxErrorPackets++;
        v.rxErrorOctets += len;
    }
}
