/*
 * C reference for prmkit's tx-burst and rx-burst benchmarks: the same algorithm as the driver's
 * TxQueue.send / RxQueue.receive (io.prmkit.driver.dp), written the way rdma-core and DPDK write it
 * (whole big-endian words through struct members, htobe32/be32toh). Built with gcc -O2 by
 * `prmkit bench`.
 *
 *   dp_bench tx-burst|rx-burst SECONDS
 *
 * prints one line: "<case> <ns per packet> <checksum>".
 * Fences: the Java code uses VarHandle.storeStoreFence / fullFence / loadLoadFence / releaseFence;
 * here they are the matching __atomic_thread_fence orders (release, seq_cst, acquire, release).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOG_RING 10
#define RING (1u << LOG_RING)
#define MASK (RING - 1)
#define BURST 32
#define FRAME 64
#define POOL 4096
#define BUF 2048
#define LKEY 0x1100u
#define SQN 0x42u
#define COMPLETION_BATCH 32
#define INLINE_HDR 18
#define INLINE_MAX 60

struct ctrl_seg { uint32_t opmod_idx_opcode, qpn_ds; uint8_t signature, rsvd[2], fm_ce_se; uint32_t imm; };
struct eth_seg { uint32_t swp; uint8_t cs_flags, swp_flags; uint16_t mss; uint32_t metadata; uint16_t inline_hdr_sz; uint8_t inline_hdr_start[2]; };
struct data_seg { uint32_t byte_count, lkey; uint64_t addr; };
struct cqe64 {
    uint8_t rsvd0[12];
    uint32_t rss_hash_result;
    uint8_t rsvd16[12];
    uint8_t hds_ip_ext, l4_l3_hdr_type;
    uint16_t vlan_info;
    uint8_t rsvd32[12];
    uint32_t byte_cnt;
    uint64_t timestamp;
    uint32_t sop_drop_qpn;
    uint16_t wqe_counter;
    uint8_t signature, op_own;
};

enum { OP_NOP = 0x00, OP_SEND = 0x0a, CE_ALWAYS = 2 << 2, CE_ON_ERROR = 0 };
enum { CQE_REQ = 0, CQE_RESP_SEND = 2, CQE_REQ_ERR = 13, CQE_INVALID = 15, CQE_FORMAT_COMPRESSED = 3 };
enum { TX_VLAN = 1, TX_IP_CSUM = 1 << 1, TX_L4_CSUM = 1 << 2, TX_LSO = 1 << 3, CS_L3 = 0x40, CS_L4 = 0x80 };
enum { RX_L2_OK = 1 << 9, RX_L3_OK = 1 << 10, RX_L4_OK = 1 << 11, RX_IPV4 = 1 << 12, RX_IPV6 = 1 << 13, RX_TCP = 1 << 14, RX_UDP = 1 << 15, RX_VLAN = 1 << 8 };

/* ---- packet pool: one region, int handles, free stack, metadata in one array (as PacketPool.meta) ---- */
static uint8_t pool_mem[POOL * BUF] __attribute__((aligned(4096)));
static int pool_free[POOL], pool_top;
/* META_STRIDE ints per buffer: length, flags, RSS hash, VLAN TCI (bits 15:0) | MSS (bits 31:16).
 * External linkage: gcc -O2 deletes a static array that only the selftest reads, and with it every
 * store and CQE load of rx_receive's decode (Java must store into its heap array). */
enum { META_STRIDE = 4, M_LEN = 0, M_FLAGS = 1, M_HASH = 2, M_VLAN_MSS = 3 };
int pool_meta[POOL * META_STRIDE];
/* Statistics, as TxQueue and RxQueue keep them (external linkage for the same reason). */
uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes;

static int pool_alloc(int *out, int n) {
    int got = n < pool_top ? n : pool_top;
    for (int i = 0; i < got; i++) {
        int h = pool_free[--pool_top];
        pool_meta[h * META_STRIDE + M_LEN] = 0;
        pool_meta[h * META_STRIDE + M_FLAGS] = 0;
        out[i] = h;
    }
    return got;
}
static void pool_put(int h) {
    if (pool_top == POOL) abort();
    pool_free[pool_top++] = h;
}
#ifdef DP_BENCH_SELFTEST
/* The equivalence test gives every region the bus address 0x100000000, in C and in Java. */
static uint64_t pool_addr(int h) { return 0x100000000ull + (uint64_t)h * BUF; }
#else
static uint64_t pool_addr(int h) { return (uint64_t)(uintptr_t)pool_mem + (uint64_t)h * BUF; }
#endif

/* ---- TX ---- */
static uint8_t sq_ring[RING * 64] __attribute__((aligned(4096)));
static struct cqe64 tx_cq[RING] __attribute__((aligned(4096)));
static volatile uint32_t sq_dbr[2], tx_cq_dbr[2];
static volatile uint64_t uar[4096 / 8]; /* one UAR page */
static uint32_t pc, cc, tx_cqcc, cqe_outstanding, since_cqe, bf_off = 0x800 / 8;
static int slot_buf[RING];
static uint8_t slot_wqebbs[RING];

static void pad_nops(int count) {
    for (int i = 0; i < count; i++) {
        uint32_t slot = pc & MASK;
        struct ctrl_seg *c = (struct ctrl_seg *)(sq_ring + slot * 64);
        c->opmod_idx_opcode = htobe32(((pc & 0xffff) << 8) | OP_NOP);
        c->qpn_ds = htobe32((SQN << 8) | 1);
        c->signature = 0; c->rsvd[0] = 0; c->rsvd[1] = 0; c->fm_ce_se = 0; c->imm = 0;
        slot_buf[slot] = -1;
        slot_wqebbs[slot] = 1;
        pc++;
    }
}

static int tx_reap(void) {
    int n = 0;
    for (;;) {
        struct cqe64 *cqe = &tx_cq[tx_cqcc & MASK];
        uint8_t op_own = cqe->op_own;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if ((op_own & 1) != ((tx_cqcc >> LOG_RING) & 1) || (op_own >> 4) == CQE_INVALID) break;
        tx_cqcc++;
        n++;
        if (cqe_outstanding > 0) cqe_outstanding--;
        if ((op_own >> 4) == CQE_REQ) {
            uint16_t wc = be16toh(cqe->wqe_counter);
            int last;
            do {
                uint32_t slot = cc & MASK;
                last = (cc & 0xffff) == wc;
                if (slot_buf[slot] >= 0) pool_put(slot_buf[slot]); /* the slot is rewritten before it is read again */
                cc += slot_wqebbs[slot];
            } while (!last && cc != pc);
        } else {
            abort(); /* no errors in the benchmark */
        }
    }
    if (n > 0) {
        __atomic_thread_fence(__ATOMIC_RELEASE);
        tx_cq_dbr[0] = htobe32(tx_cqcc & 0xffffff);
    }
    return n;
}

static int l2_inline_len(int len) { return len < INLINE_HDR ? len : INLINE_HDR; }

__attribute__((noinline)) int tx_send(const int *bufs, int n) {
    tx_reap();
    int sent = 0;
    long last_wqe = -1;
    int last_signalled = 0;
    uint64_t burst_bytes = 0;
    for (; sent < n; sent++) {
        if (cqe_outstanding == RING) break;
        int h = bufs[sent];
        int len = pool_meta[h * META_STRIDE + M_LEN];
        int fl = pool_meta[h * META_STRIDE + M_FLAGS];
        if (fl & (TX_VLAN | TX_LSO)) break; /* the reference builds plain WQEs only */
        int whole = len <= INLINE_MAX;
        int ihs = whole ? len : l2_inline_len(len);
        int inline_ds = ihs > 2 ? (ihs - 2 + 15) / 16 : 0;
        int data = len > ihs;
        int ds = 2 + inline_ds + data;
        int wqebbs = (ds * 16 + 63) / 64;
        uint32_t slot = pc & MASK;
        int pad = slot + wqebbs > RING ? RING - slot : 0;
        if (RING - (pc - cc) < (uint32_t)(wqebbs + pad)) break;
        if (pad) { pad_nops(pad); slot = pc & MASK; }
        int signal = ++since_cqe >= COMPLETION_BATCH || sent == n - 1;
        if (signal) { since_cqe = 0; cqe_outstanding++; }
        uint8_t *wqe = sq_ring + slot * 64;
        struct ctrl_seg *c = (struct ctrl_seg *)wqe;
        struct eth_seg *e = (struct eth_seg *)(wqe + 16);
        c->opmod_idx_opcode = htobe32(((pc & 0xffff) << 8) | OP_SEND);
        c->qpn_ds = htobe32((SQN << 8) | ds);
        c->signature = 0; c->rsvd[0] = 0; c->rsvd[1] = 0;
        c->fm_ce_se = signal ? CE_ALWAYS : CE_ON_ERROR;
        c->imm = 0;
        e->swp = 0; e->cs_flags = (fl & TX_IP_CSUM ? CS_L3 : 0) | (fl & TX_L4_CSUM ? CS_L4 : 0); e->swp_flags = 0; e->mss = 0; e->metadata = 0;
        e->inline_hdr_sz = htobe16(ihs);
        memcpy(e->inline_hdr_start, pool_mem + (size_t)h * BUF, ihs);
        if (data) {
            struct data_seg *d = (struct data_seg *)(wqe + 32 + inline_ds * 16);
            d->byte_count = htobe32(len - ihs);
            d->lkey = htobe32(LKEY);
            d->addr = htobe64(pool_addr(h) + ihs);
            slot_buf[slot] = h;
        } else {
            slot_buf[slot] = -1;
            pool_put(h);
        }
        slot_wqebbs[slot] = wqebbs;
        pc += wqebbs;
        last_wqe = slot * 64;
        last_signalled = signal;
        burst_bytes += len;
    }
    tx_packets += sent;
    tx_bytes += burst_bytes;
    if (last_wqe >= 0) {
        if (!last_signalled) {
            ((struct ctrl_seg *)(sq_ring + last_wqe))->fm_ce_se = CE_ALWAYS;
            since_cqe = 0;
            cqe_outstanding++;
        }
        __atomic_thread_fence(__ATOMIC_RELEASE);
        sq_dbr[1] = htobe32(pc & 0xffff);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        uint64_t first8;
        memcpy(&first8, sq_ring + last_wqe, 8);
        uar[bf_off] = first8;
        bf_off ^= 0x100 / 8;
    }
    return sent;
}

/* ---- RX ---- */
static struct data_seg rq_ring[RING] __attribute__((aligned(4096)));
static struct cqe64 rx_cq[RING] __attribute__((aligned(4096)));
static volatile uint32_t rq_dbr[2], rx_cq_dbr[2];
static uint32_t posted, consumed, rx_cqcc;
static int rx_slot[RING];

static void rx_fill(void) {
    /* buffers straight off the free stack, metadata left for rx_receive to write (as RxQueue.fill) */
    int want = RING - (posted - consumed);
    if (want == 0) return;
    int got = want < pool_top ? want : pool_top;
    if (got == 0) return;
    for (int i = 0; i < got; i++) {
        int h = pool_free[--pool_top];
        uint32_t slot = posted & MASK;
        rq_ring[slot].byte_count = htobe32(BUF);
        rq_ring[slot].lkey = htobe32(LKEY);
        rq_ring[slot].addr = htobe64(pool_addr(h));
        rx_slot[slot] = h;
        posted++;
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    rq_dbr[0] = htobe32(posted & 0xffff);
}

/* The flags per (hds_ip_ext & 7, l3_hdr_type, l4_hdr_type), as RxQueue's RX_FLAGS: one load per CQE
 * (the per-bit tests and compares before took 6.04-6.23 ns against 5.63-5.66 with the table). */
static int rx_flags[256];
static void rx_flags_init(void) {
    for (int i = 0; i < 256; i++) {
        int ext = i & 7, l3 = (i >> 3) & 3, l4 = (i >> 5) & 7, fl = 0;
        if (ext & 1) fl |= RX_L2_OK;
        if (ext & 2) fl |= RX_L3_OK;
        if (ext & 4) fl |= RX_L4_OK;
        if (l3 == 2) fl |= RX_IPV4; else if (l3 == 1) fl |= RX_IPV6;
        if (l4 == 2) fl |= RX_UDP; else if (l4 != 0) fl |= RX_TCP;
        rx_flags[i] = fl;
    }
}
__attribute__((noinline)) int rx_receive(int *bufs, int max) {
    /* ownership of up to max plain CQEs, stopping at a compressed session's title as RxQueue.receive does
     * (the benchmark has none), one acquire fence, then decode. RxQueue also counts the RESP_SEND CQEs
     * while polling so that its decode can skip each opcode; here that count cost more (5.45 -> 5.56 ns)
     * than reading op_own again, so C keeps the read. */
    int n = 0, polled = 0;
    uint64_t burst_bytes = 0;
    while (polled < max) {
        uint32_t c = rx_cqcc + polled;
        uint8_t op_own = rx_cq[c & MASK].op_own;
        if ((op_own & 1) != ((c >> LOG_RING) & 1) || (op_own >> 4) == CQE_INVALID || ((op_own >> 2) & 3) == CQE_FORMAT_COMPRESSED) break;
        polled++;
    }
    if (polled == 0) return 0;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    for (int k = 0; k < polled; k++) {
        struct cqe64 *cqe = &rx_cq[rx_cqcc & MASK];
        uint8_t op_own = cqe->op_own;
        rx_cqcc++;
        uint32_t slot = be16toh(cqe->wqe_counter) & MASK;
        int h = rx_slot[slot];
        rx_slot[slot] = -1;
        consumed++;
        if ((op_own >> 4) != CQE_RESP_SEND || h < 0) {
            if (h >= 0) pool_put(h);
            continue;
        }
        int len = be32toh(cqe->byte_cnt);
        uint8_t ext = cqe->hds_ip_ext, hdr = cqe->l4_l3_hdr_type;
        int fl = rx_flags[(ext & 7) | ((hdr >> 2) & 3) << 3 | ((hdr >> 4) & 7) << 5];
        int *m = &pool_meta[h * META_STRIDE];
        if (hdr & 1) { fl |= RX_VLAN; m[M_VLAN_MSS] = be16toh(cqe->vlan_info); }
        m[M_LEN] = len;
        m[M_FLAGS] = fl;
        m[M_HASH] = be32toh(cqe->rss_hash_result);
        bufs[n++] = h;
        burst_bytes += len;
    }
    rx_packets += n;
    rx_bytes += burst_bytes;
    if (polled > 0) {
        __atomic_thread_fence(__ATOMIC_RELEASE);
        rx_cq_dbr[0] = htobe32(rx_cqcc & 0xffffff);
        rx_fill();
    }
    return n;
}

/* ---- harness ---- */
static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint32_t tx_dev_pc;
static uint64_t tx_round(void) {
    int bufs[BURST];
    int n = pool_alloc(bufs, BURST);
    for (int i = 0; i < n; i++) pool_meta[bufs[i] * META_STRIDE + M_LEN] = FRAME;
    int sent = tx_send(bufs, n);
    /* the device completes the burst's last WQE */
    struct cqe64 *cqe = &tx_cq[tx_dev_pc & MASK];
    memset(cqe, 0, sizeof *cqe);
    cqe->sop_drop_qpn = htobe32(SQN);
    cqe->wqe_counter = htobe16((pc - 1) & 0xffff);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    cqe->op_own = (CQE_REQ << 4) | ((tx_dev_pc >> LOG_RING) & 1);
    tx_dev_pc++;
    return sent;
}

static uint32_t rx_dev_pc;
static uint64_t rx_round(void) {
    int bufs[BURST];
    for (int i = 0; i < BURST; i++, rx_dev_pc++)
        rx_cq[rx_dev_pc & MASK].op_own = (CQE_RESP_SEND << 4) | ((rx_dev_pc >> LOG_RING) & 1);
    int n = rx_receive(bufs, BURST);
    /* The application frees the burst as RxBurstBench does (PacketPool.free(bufs, 0, n): one room check,
     * then the pushes) and reads nothing else: a read of each buffer's length here was work the Java
     * side does not do (0.1 ns per packet with one array per item, 0.45 with the strided metadata). */
    if (n > POOL - pool_top) abort();
    for (int i = 0; i < n; i++) pool_free[pool_top++] = bufs[i];
    return n;
}

#ifdef DP_BENCH_SELFTEST
static uint64_t fnv(const void *p, size_t n, uint64_t h) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#endif

static void setup(int tx);

int main(int argc, char **argv) {
#ifdef DP_BENCH_SELFTEST
    /* For the equivalence test: hashes of the rings and metadata after three rounds of each case. */
    if (argc == 2 && strcmp(argv[1], "selftest") == 0) {
        setup(1);
        for (int r = 0; r < 3; r++) tx_round();
        uint64_t t = fnv(sq_ring, sizeof sq_ring, 0xcbf29ce484222325ull);
        t = fnv((const void *)&sq_dbr[1], 4, t);
        setup(0);
        uint64_t meta = 0xcbf29ce484222325ull;
        for (int r = 0; r < 3; r++) {
            int bufs[BURST];
            for (int i = 0; i < BURST; i++, rx_dev_pc++)
                rx_cq[rx_dev_pc & MASK].op_own = (CQE_RESP_SEND << 4) | ((rx_dev_pc >> LOG_RING) & 1);
            int n = rx_receive(bufs, BURST);
            for (int i = 0; i < n; i++) {
                const int *pm = &pool_meta[bufs[i] * META_STRIDE];
                int m[4] = {bufs[i], pm[M_LEN], pm[M_FLAGS], pm[M_HASH]};
                meta = fnv(m, sizeof m, meta);
                pool_put(bufs[i]);
            }
        }
        uint64_t rq = fnv(rq_ring, sizeof rq_ring, 0xcbf29ce484222325ull);
        rq = fnv((const void *)&rq_dbr[0], 4, rq);
        rq = fnv((const void *)&rx_cq_dbr[0], 4, rq);
        printf("selftest %016llx %016llx %016llx\n", (unsigned long long)t, (unsigned long long)meta, (unsigned long long)rq);
        return 0;
    }
#endif
    if (argc != 3) {
        fprintf(stderr, "usage: %s tx-burst|rx-burst SECONDS\n", argv[0]);
        return 2;
    }
    int tx = strcmp(argv[1], "tx-burst") == 0;
    if (!tx && strcmp(argv[1], "rx-burst") != 0) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    double seconds = atof(argv[2]);
    setup(tx);
    uint64_t sum = 0, rounds = 0;
    for (int phase = 0; phase < 2; phase++) {
        double budget = (phase == 0 ? 0.2 : 1.0) * seconds * 1e9;
        double start = now_ns(), elapsed = 0;
        rounds = 0;
        while (elapsed < budget) {
            for (int k = 0; k < 1024; k++, rounds++) sum += tx ? tx_round() : rx_round();
            elapsed = now_ns() - start;
        }
        if (phase == 1) printf("%s %.3f %llu\n", argv[1], elapsed / ((double)rounds * BURST), (unsigned long long)(sum + uar[0x800 / 8] + sq_dbr[1]));
    }
    return 0;
}

/* Fresh pool and rings, as the Java benchmark's setup builds them. */
static void setup(int tx) {
    rx_flags_init();
    memset(sq_ring, 0, sizeof sq_ring);
    memset(rq_ring, 0, sizeof rq_ring);
    pc = cc = tx_cqcc = cqe_outstanding = since_cqe = 0;
    bf_off = 0x800 / 8;
    posted = consumed = rx_cqcc = 0;
    tx_dev_pc = rx_dev_pc = 0;
    sq_dbr[0] = sq_dbr[1] = tx_cq_dbr[0] = rq_dbr[0] = rx_cq_dbr[0] = 0;
    for (int i = 0; i < POOL; i++) pool_free[i] = POOL - 1 - i;
    pool_top = POOL;
    for (int i = 0; i < POOL; i++) for (int j = 0; j < FRAME; j++) pool_mem[(size_t)i * BUF + j] = (uint8_t)(i + j);
    for (uint32_t i = 0; i < RING; i++) {
        tx_cq[i].op_own = (CQE_INVALID << 4) | 1;
        slot_buf[i] = -1;
        rx_slot[i] = -1;
        struct cqe64 *c = &rx_cq[i];
        c->byte_cnt = htobe32(FRAME);
        c->wqe_counter = htobe16(i);
        c->rss_hash_result = htobe32(0x9e3779b9u * i);
        c->hds_ip_ext = 7;
        c->l4_l3_hdr_type = (2 << 4) | (2 << 2);
        c->op_own = (CQE_INVALID << 4) | 1;
    }
    if (!tx) rx_fill();
}
