package io.prmkit.softhca.wire;

/**
 * Per-port frame counters, as the PPCNT groups report them (IEEE 802.3, RFC 2863, RFC 2819, physical
 * layer). Updated only by the thread that moves frames through the port; readers (commands) may see a
 * value a few frames old, as they would on hardware. Octet counts exclude the 4-byte FCS, which the
 * model does not carry. The port counts (and the datapath its drops, {@link #countRxDiscard}); PPCNT
 * and tests read them through the getters.
 */
public final class PortCounters {
    private long txFrames, txOctets, txUnicast, txMulticast, txBroadcast;
    /** Frames the port could not send (link down). */
    private long txDiscards;
    private long rxFrames, rxOctets, rxUnicast, rxMulticast, rxBroadcast;
    /** Frames received with a bad FCS (a corrupted frame on the wire); dropped by the MAC. */
    private long rxFcsErrors;
    /** Frames longer than the port's MTU allows; dropped. */
    private long rxTooLong;
    /** Good frames dropped for lack of receive resources (no steering match, no WQE). */
    private long rxDiscards;
    /** Every frame that reached the MAC (good and bad), and their bytes (RFC 2819 octets/pkts). */
    private long rxAllFrames, rxAllOctets;
    private long rxUndersize;
    /** RFC 2819 size histogram of received frames: 64, 65-127, ..., 8192-10239 (length + FCS). */
    private final long[] rxSizeHistogram = new long[10];
    private long linkDownEvents;
    private long clearedAtMillis = System.currentTimeMillis();

    private static final int[] BUCKET_LIMITS = {64, 127, 255, 511, 1023, 1518, 2047, 4095, 8191, 10239};

    void countTx(long dmac, int len) {
        txFrames++;
        txOctets += len;
        if (ParsedFrame.isBroadcast(dmac)) txBroadcast++;
        else if (ParsedFrame.isMulticast(dmac)) txMulticast++;
        else txUnicast++;
    }

    void countRxGood(long dmac, int len) {
        rxFrames++;
        rxOctets += len;
        if (ParsedFrame.isBroadcast(dmac)) rxBroadcast++;
        else if (ParsedFrame.isMulticast(dmac)) rxMulticast++;
        else rxUnicast++;
    }

    void countRxSeen(int len) {
        rxAllFrames++;
        rxAllOctets += len;
        int withFcs = len + 4;
        if (withFcs < 64) {
            rxUndersize++;
            return;
        }
        for (int i = 0; i < BUCKET_LIMITS.length; i++) {
            if (withFcs <= BUCKET_LIMITS[i]) {
                rxSizeHistogram[i]++;
                return;
            }
        }
    }

    public long txFrames() {
        return txFrames;
    }

    public long txOctets() {
        return txOctets;
    }

    public long txUnicast() {
        return txUnicast;
    }

    public long txMulticast() {
        return txMulticast;
    }

    public long txBroadcast() {
        return txBroadcast;
    }

    public long txDiscards() {
        return txDiscards;
    }

    public long rxFrames() {
        return rxFrames;
    }

    public long rxOctets() {
        return rxOctets;
    }

    public long rxUnicast() {
        return rxUnicast;
    }

    public long rxMulticast() {
        return rxMulticast;
    }

    public long rxBroadcast() {
        return rxBroadcast;
    }

    public long rxFcsErrors() {
        return rxFcsErrors;
    }

    public long rxTooLong() {
        return rxTooLong;
    }

    public long rxDiscards() {
        return rxDiscards;
    }

    public long rxAllFrames() {
        return rxAllFrames;
    }

    public long rxAllOctets() {
        return rxAllOctets;
    }

    public long rxUndersize() {
        return rxUndersize;
    }

    public long linkDownEvents() {
        return linkDownEvents;
    }

    /** Received frames in RFC 2819 size bucket {@code i} (0: 64 bytes ... 9: 8192-10239, length + FCS). */
    public long rxSizeHistogram(int i) {
        return rxSizeHistogram[i];
    }

    /** Size buckets of {@link #rxSizeHistogram}. */
    public static int sizeBuckets() {
        return BUCKET_LIMITS.length;
    }

    public long clearedAtMillis() {
        return clearedAtMillis;
    }

    /** A good frame dropped for lack of receive resources: no steering match, no WQE, a full CQ (the datapath's drops). */
    public void countRxDiscard() {
        rxDiscards++;
    }

    void countTxDiscard() {
        txDiscards++;
    }

    void countRxFcsError() {
        rxFcsErrors++;
    }

    void countRxTooLong() {
        rxTooLong++;
    }

    void countLinkDown() {
        linkDownEvents++;
    }

    /** Zeroes every counter (PPCNT clr). */
    public void clear() {
        txFrames = txOctets = txUnicast = txMulticast = txBroadcast = txDiscards = 0;
        rxFrames = rxOctets = rxUnicast = rxMulticast = rxBroadcast = rxFcsErrors = rxTooLong = rxDiscards = 0;
        rxAllFrames = rxAllOctets = rxUndersize = 0;
        java.util.Arrays.fill(rxSizeHistogram, 0);
        linkDownEvents = 0;
        clearedAtMillis = System.currentTimeMillis();
    }
}
