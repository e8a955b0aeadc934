package io.prmkit.demo;

import io.prmkit.driver.dp.FrameHeaders;
import io.prmkit.net.Ethhdr;
import io.prmkit.net.VlanHdr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Checks received frames against what the wire must carry for a {@link TrafficMix}: each frame is
 * identified by its headers, its expected bytes are rebuilt and compared byte for byte, and each
 * (id, segment) may arrive once. Counts lost, corrupt and duplicated frames; allocates only at
 * construction. One per receiving thread (merge the counts), or shared by one thread.
 */
public final class WireCheck {
    private final TrafficMix mix;
    private final int ids;
    /** Ids below 64 (the LSO send among them): a bit per wire segment received. */
    private final int[] seenSmall = new int[SMALL];
    /** Ids from 64 on (one wire frame each): one bit per id, so a soak of 40 million ids needs 5 MB. */
    private final long[] seen;
    private static final int SMALL = 64;
    private final MemorySegment scratch;
    private long received;
    private long corrupt;
    private long duplicate;
    private long expectedFrames;
    private String firstProblem = "";

    public WireCheck(TrafficMix mix, int ids) {
        this.mix = mix;
        this.ids = ids;
        this.seen = new long[(ids + 63) >>> 6];
        this.scratch = Arena.ofAuto().allocate(2L * mix.maxWireLength() + 16384, 64);
    }

    /** Counts {@code id}'s frames as expected on the wire (call for every frame that was sent). */
    public void sent(int id) {
        expectedFrames += mix.wireFrames(id);
    }

    /**
     * Checks one received frame. With {@code strippedTci >= 0} the device stripped that VLAN tag and
     * the frame is compared with the tag put back. Returns true when it is an expected, first copy.
     */
    public boolean check(MemorySegment s, long off, int len, int strippedTci) {
        received++;
        long claim = TrafficMix.identify(s, off, len);
        if (claim < 0 || (claim >>> 8) >= ids) {
            corrupt++;
            problem("a " + len + "-byte frame names no sent frame (ethertype 0x" + Integer.toHexString(FrameHeaders.etherType(s, off, len)) + ")");
            return false;
        }
        int id = (int) (claim >>> 8);
        int seg = (int) (claim & 0xff);
        if (seg >= mix.wireFrames(id)) {
            corrupt++;
            problem("frame " + id + " has no segment " + seg);
            return false;
        }
        int elen = mix.expected(id, seg, scratch, 0);
        boolean same;
        if (strippedTci >= 0) {
            int macs = FrameHeaders.ETH_ADDRS_LEN;
            same = len + FrameHeaders.VLAN_HLEN == elen
                    && Ethhdr.h_proto(scratch, 0) == FrameHeaders.ETHERTYPE_VLAN
                    && VlanHdr.h_vlan_TCI(scratch, FrameHeaders.ETH_HLEN) == strippedTci
                    && MemorySegment.mismatch(s, off, off + macs, scratch, 0, macs) < 0
                    && MemorySegment.mismatch(s, off + macs, off + len, scratch, macs + FrameHeaders.VLAN_HLEN, elen) < 0;
        } else {
            same = len == elen && MemorySegment.mismatch(s, off, off + len, scratch, 0, elen) < 0;
        }
        if (!same) {
            corrupt++;
            long at = strippedTci >= 0 ? -1 : MemorySegment.mismatch(s, off, off + len, scratch, 0, elen);
            problem("frame " + id + " (" + mix.kind(id) + ") segment " + seg + ": " + len + " bytes, expected " + elen
                    + (strippedTci >= 0 ? " (VLAN " + strippedTci + " stripped)" : "") + (at >= 0 ? ", first difference at byte " + at : ""));
            return false;
        }
        if (id < SMALL) {
            int bit = 1 << seg;
            if ((seenSmall[id] & bit) != 0) {
                duplicate++;
                return false;
            }
            seenSmall[id] |= bit;
            return true;
        }
        long bit = 1L << id;
        if ((seen[id >>> 6] & bit) != 0) {
            duplicate++;
            return false;
        }
        seen[id >>> 6] |= bit;
        return true;
    }

    private void problem(String what) {
        if (firstProblem.isEmpty()) firstProblem = what;
    }

    /** The first corrupt frame, described ("" when none). */
    public String firstProblem() {
        return firstProblem;
    }

    /** Adds another checker's counts (another RX thread of the same traffic); a frame both saw is a duplicate. */
    public void merge(WireCheck other) {
        if (other.ids != ids) throw new IllegalArgumentException("checkers of different id ranges");
        for (int i = 0; i < SMALL; i++) {
            duplicate += Integer.bitCount(seenSmall[i] & other.seenSmall[i]);
            seenSmall[i] |= other.seenSmall[i];
        }
        for (int i = 0; i < seen.length; i++) {
            duplicate += Long.bitCount(seen[i] & other.seen[i]); // word 0 stays empty: ids below 64 are in seenSmall
            seen[i] |= other.seen[i];
        }
        if (firstProblem.isEmpty()) firstProblem = other.firstProblem;
        received += other.received;
        corrupt += other.corrupt;
        duplicate += other.duplicate;
        expectedFrames += other.expectedFrames;
    }

    /** Frames received intact and for the first time. */
    public long good() {
        return received - corrupt - duplicate;
    }

    public long received() {
        return received;
    }

    public long corrupt() {
        return corrupt;
    }

    public long duplicate() {
        return duplicate;
    }

    public long expectedFrames() {
        return expectedFrames;
    }

    /** Expected frames that did not arrive intact. */
    public long lost() {
        return expectedFrames - good();
    }
}
