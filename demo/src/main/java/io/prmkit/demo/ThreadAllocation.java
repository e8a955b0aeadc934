package io.prmkit.demo;

import java.lang.management.ManagementFactory;

/**
 * The bytes the current thread has allocated so far, as HotSpot counts them per thread (its
 * thread-local allocation buffer included): how {@link LoopbackRun} shows that a warmed-up datapath
 * allocates nothing, whatever the collector or heap size.
 */
final class ThreadAllocation {
    private static final com.sun.management.ThreadMXBean THREADS = bean();

    private ThreadAllocation() {}

    private static com.sun.management.ThreadMXBean bean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            t.getCurrentThreadAllocatedBytes(); // links its native method now: that allocates, once
            return t;
        }
        return null;
    }

    static boolean supported() {
        return THREADS != null;
    }

    /** This thread's allocated bytes so far (monotonic); reading it allocates nothing. */
    static long current() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
