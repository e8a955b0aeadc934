package io.prmkit.softhca;

import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeFormat;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.MiniCqe8;
import io.prmkit.mlx5.MiniCqeResFormat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * A test-side reader of a CQ ring, plain or compressed, written from the algorithm of the kernel's
 * mlx5e receive path (en_rx.c): a COMPRESSED entry at the consumer counter {@code cc} is a title
 * whose {@code byte_cnt} is the session's length N; completion i takes the title's fields, mini CQE
 * {@code i % 8} of the array read at slot {@code cc + 1} (i < 8) or {@code cc + i} (i a multiple of
 * 8), the title's {@code wqe_counter} + i, and the owner bit of its own slot; afterwards the op_own
 * byte of all N slots is rewritten with the owner bit of each slot's pass (mlx5e_cqes_update_owner)
 * so no stale mini array or unwritten slot is taken for a CQE on the next pass. The doorbell
 * record's consumer index follows. In CSUM format the kernel clears the hash of decompressed
 * completions ({@code mlx5e_decompress_cqe_no_hash}); so does this reader.
 */
public final class CqeDecoder {
    /** One completion as software sees it. */
    public record Completion(int opcode, int byteCnt, int wqeCounter, int hash, int hashIp, int hashL4, int checksum,
            int hdsIpExt, int l3, int l4, boolean vlan, int vlanInfo, int flowTag, int srqn, boolean frag, boolean ipOptions,
            int syndrome) {
        /** Without what {@code format} gives up (HASH: the checksum; CSUM: the hash), to compare a compressed run with a plain one. */
        public Completion comparable(int format) {
            boolean hashFormat = format == MiniCqeResFormat.HASH$VALUE;
            return new Completion(opcode, byteCnt, wqeCounter, hashFormat ? hash : 0, hashFormat ? hashIp : 0, hashFormat ? hashL4 : 0,
                    hashFormat ? 0 : checksum, hdsIpExt, l3, l4, vlan, vlanInfo, flowTag, srqn, frag, ipOptions, syndrome);
        }
    }

    /** Where a session (or a plain CQE: length 1) started, in consumer-counter space, and how many completions it held. */
    public record Block(int cc, int length) {}

    private final MemorySegment ring;
    private final int logSize;
    private final MemorySegment dbr;
    private final boolean hashFormat;
    public int cc;
    public final List<Block> blocks = new ArrayList<>();

    public CqeDecoder(MemorySegment ring, int logSize, MemorySegment dbr, int format) {
        this.ring = ring;
        this.logSize = logSize;
        this.dbr = dbr;
        this.hashFormat = format == MiniCqeResFormat.HASH$VALUE;
    }

    private MemorySegment slot(int counter) {
        return ring.asSlice((long) (counter & ((1 << logSize) - 1)) * 64, 64);
    }

    private boolean owned(int counter) {
        MemorySegment c = slot(counter);
        return Cqe64.owner(c) == (((counter >>> logSize) & 1) == 1) && Cqe64.opcode(c) != CqeOpcode.INVALID.value;
    }

    /** Every completion software owns now, in order; the doorbell record is updated after each CQE or session. */
    public List<Completion> drain() {
        List<Completion> out = new ArrayList<>();
        while (owned(cc)) {
            VarHandle.acquireFence();
            MemorySegment title = copy(slot(cc));
            if (Cqe64.cqe_format(title) != CqeFormat.COMPRESSED.value) {
                out.add(of(title, Cqe64.byte_cnt(title), Cqe64.wqe_counter(title), Cqe64.rss_hash_result(title), Cqe64.check_sum(title), false));
                blocks.add(new Block(cc, 1));
                cc++;
            } else {
                int n = Cqe64.byte_cnt(title);
                MemorySegment minis = copy(slot(cc + 1));
                for (int i = 0; i < n; i++) {
                    if (i > 0 && i % 8 == 0) minis = copy(slot(cc + i));
                    long m = (i % 8) * MiniCqe8.SIZE;
                    int hash = hashFormat ? MiniCqe8.rx_hash_result(minis, m) : 0;
                    int csum = hashFormat ? Cqe64.check_sum(title) : MiniCqe8.checksum(minis, m);
                    out.add(of(title, MiniCqe8.byte_cnt(minis, m), (Cqe64.wqe_counter(title) + i) & 0xffff, hash, csum, !hashFormat));
                }
                for (int i = 0; i < n; i++) {
                    MemorySegment s = slot(cc + i);
                    Cqe64.Device.opcode$setUnchecked(s, 0);
                    Cqe64.Device.cqe_format$setUnchecked(s, 0);
                    Cqe64.Device.se$set(s, false);
                    Cqe64.Device.owner$set(s, (((cc + i) >>> logSize) & 1) == 1);
                }
                blocks.add(new Block(cc, n));
                cc += n;
            }
            CqDoorbellRecord.consumer_index$set(dbr, cc & 0xffffff);
        }
        return out;
    }

    private static MemorySegment copy(MemorySegment s) {
        return MemorySegment.ofArray(s.toArray(ValueLayout.JAVA_BYTE));
    }

    private static Completion of(MemorySegment c, int bytes, int counter, int hash, int csum, boolean noHash) {
        int op = Cqe64.opcode(c);
        boolean err = op == CqeOpcode.REQ_ERR.value || op == CqeOpcode.RESP_ERR.value;
        if (err) return new Completion(op, 0, ErrCqe.wqe_counter(c), 0, 0, 0, 0, 0, 0, 0, false, 0, 0, ErrCqe.srqn(c), false, false, ErrCqe.syndrome(c));
        return new Completion(op, bytes, counter, hash, noHash ? 0 : Cqe64.rss_hash_ip_type(c), noHash ? 0 : Cqe64.rss_hash_l4_type(c), csum,
                Cqe64.hds_ip_ext(c), Cqe64.l3_hdr_type(c), Cqe64.l4_hdr_type(c), Cqe64.vlan_present(c), Cqe64.vlan_info(c),
                Cqe64.flow_tag(c), Cqe64.srqn(c), Cqe64.ip_frag(c), Cqe64.ip_options(c), 0);
    }

    /** Lengths of the blocks seen so far (1: a plain CQE). */
    public List<Integer> lengths() {
        return blocks.stream().map(Block::length).toList();
    }
}
