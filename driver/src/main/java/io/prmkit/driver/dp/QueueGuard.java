package io.prmkit.driver.dp;

import io.prmkit.driver.eth.EthPort;

/**
 * A datapath queue's lifecycle and its one-thread rule, checked once per call (not per packet):
 * a call after close is refused, and so is a call while another thread is inside one (the queue
 * keeps its rings' state in plain fields: two threads at once would post one WQE twice). A queue's
 * public calls {@link #enter} and {@link #exit} around their work; {@link #detach} is the port's
 * close, {@link #close} the user's.
 */
final class QueueGuard implements EthPort.Attachment {
    private final String what;
    private boolean closed;
    /** The thread inside a call now (null: none). */
    private Thread user;

    QueueGuard(String what) {
        this.what = what;
    }

    void enter() {
        if (closed) throw new IllegalStateException(what + " is closed");
        Thread t = Thread.currentThread();
        Thread u = user;
        if (u != null && u != t)
            throw new IllegalStateException(what + " is in use by thread '" + u.getName() + "': a queue is used by one thread at a time");
        user = t;
    }

    void exit() {
        user = null;
    }

    boolean closed() {
        return closed;
    }

    void close() {
        closed = true;
    }

    /** The port closes: the queue's SQ or RQ is about to be destroyed. */
    @Override
    public void detach() {
        closed = true;
    }
}
