package io.prmkit.bench;

/**
 * Runs the tx-burst and rx-burst loops (the driver's TxQueue.send / RxQueue.receive on in-memory
 * rings) for {@code args[0]} packets each; {@link DatapathNoAllocTest} starts it under Epsilon GC
 * with a heap that per-packet allocation would exhaust.
 */
public final class NoAllocMain {
    public static void main(String[] args) {
        long packets = Long.parseLong(args[0]);
        TxBurstBench tx = new TxBurstBench();
        tx.setup();
        RxBurstBench rx = new RxBurstBench();
        rx.setup();
        long sent = 0, received = 0;
        for (long i = 0; i < packets / DpRings.BURST; i++) {
            sent += tx.generated();
            received += rx.generated();
        }
        System.out.println("sent " + sent + " received " + received);
    }
}
