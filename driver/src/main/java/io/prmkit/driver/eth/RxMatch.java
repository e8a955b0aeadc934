package io.prmkit.driver.eth;

import io.prmkit.mlx5.FteMatchParam;
import io.prmkit.mlx5.FteMatchSetLyr24;
import io.prmkit.mlx5.MatchCriteriaEnable;
import java.lang.foreign.MemorySegment;

/**
 * Which received frames a port's receive rule takes ({@link EthPortConfig#withRxMatch}): every frame
 * (the default), or those to one destination MAC and/or of one ethertype. It is written as the PRM
 * writes a rule: a mask (a flow group's {@code match_criteria}) and a value (a flow entry's {@code
 * match_value}), each an {@code fte_match_param} whose outer headers ({@code fte_match_set_lyr_2_4})
 * are set with the spec's accessors, and {@code match_criteria_enable} naming the part in use. The
 * same bytes go into the port's own flow table, or, on a card the kernel keeps, to rdma-core's
 * {@code mlx5dv_create_flow_matcher} and {@code mlx5dv_create_flow}: there a rule narrower than every
 * frame leaves the rest to the host's netdev.
 *
 * @param dmac      the destination MAC (48 bits), or -1: any
 * @param ethertype the ethertype, or -1: any
 */
public record RxMatch(long dmac, int ethertype) {
    public RxMatch {
        if (dmac < -1 || dmac > 0xffff_ffff_ffffL) throw new IllegalArgumentException("a MAC address is 48 bits: 0x" + Long.toHexString(dmac));
        if (ethertype < -1 || ethertype > 0xffff) throw new IllegalArgumentException("an ethertype is 16 bits: " + ethertype);
    }

    /** Every frame the vport receives. */
    public static RxMatch all() {
        return new RxMatch(-1, -1);
    }

    /** Frames to {@code mac} (6 bytes). */
    public static RxMatch destinationMac(byte[] mac) {
        if (mac.length != 6) throw new IllegalArgumentException("a MAC address has 6 bytes, got " + mac.length);
        long v = 0;
        for (byte b : mac) v = v << 8 | (b & 0xff);
        return new RxMatch(v, -1);
    }

    /** Frames of {@code type} (0x88b5, ...). */
    public static RxMatch etherType(int type) {
        return new RxMatch(-1, type);
    }

    /** These frames, of {@code type} too. */
    public RxMatch andEtherType(int type) {
        return new RxMatch(dmac, type);
    }

    /** Whether every frame matches (no criteria). */
    public boolean isAll() {
        return dmac < 0 && ethertype < 0;
    }

    /** {@code match_criteria_enable}: the outer headers, or nothing for every frame. */
    public int criteriaEnable() {
        return isAll() ? 0 : MatchCriteriaEnable.OUTER_HEADERS$MASK;
    }

    /** Writes the mask into {@code fteMatchParam}: all ones over the fields matched on. */
    public void mask(MemorySegment fteMatchParam) {
        MemorySegment outer = FteMatchParam.outer_headers(fteMatchParam);
        if (dmac >= 0) FteMatchSetLyr24.dmac$set(outer, 0xffff_ffff_ffffL);
        if (ethertype >= 0) FteMatchSetLyr24.ethertype$set(outer, 0xffff);
    }

    /** Writes the value into {@code fteMatchParam}. */
    public void value(MemorySegment fteMatchParam) {
        MemorySegment outer = FteMatchParam.outer_headers(fteMatchParam);
        if (dmac >= 0) FteMatchSetLyr24.dmac$set(outer, dmac);
        if (ethertype >= 0) FteMatchSetLyr24.ethertype$set(outer, ethertype);
    }
}
