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

/*
 * Every ring size, mask and array, the pool's size, buffer size and lkey, the SQ's number and inline
 * limit are run-time values reached through a queue or pool struct, as in the driver (RxQueue's cqMask,
 * slotBuffer, PacketPool's lkey, ...) and in every C driver (DPDK's rxq->cqe_n, rxq->elts): the
 * device's caps and the configuration choose them. They come from volatiles, so gcc cannot fold them
 * into constants or fixed addresses that the Java driver cannot have either. Each burst function copies
 * the fields it uses into locals on entry and writes back what changed, as TxQueue and RxQueue do.
 * (With compile-time rings and static arrays, the form before 2 December 2026, rx-burst's C figure was
 * 5.83-6.09 ns and tx-burst's 10.04-10.14 on the same machine; see docs/datapath-bench-log.md.)
 */
static volatile uint32_t ring_log_config = LOG_RING, pool_config = POOL, buf_config = BUF, lkey_config = LKEY,
                          sqn_config = SQN, inline_max_config = INLINE_MAX;

/* ---- packet pool: one region, int handles, free stack, metadata in one array (as PacketPool) ---- */
/* META_STRIDE ints per buffer: length, flags, RSS hash, VLAN TCI (bits 15:0) | MSS (bits 31:16). */
enum { META_STRIDE = 4, M_LEN = 0, M_FLAGS = 1, M_HASH = 2, M_VLAN_MSS = 3 };
struct pool {
    uint8_t *mem;
    int *free, top, capacity;
    int *meta;
    uint64_t addr_base;
    uint32_t buf_size, lkey;
};
/* External linkage: gcc -O2 may delete stores into memory only the selftest reads (it once deleted a
 * static metadata array and with it most of rx_receive's decode); reachable from a global, they stay. */
struct pool dp_pool;

/* The stack's top in a local, stored once (as PacketPool.alloc and free(handles, offset, n)): the
 * int stores into the arrays could alias the struct, so gcc would store the top back on every turn. */
static int pool_alloc(struct pool *p, int *out, int n) {
    int *const free_stack = p->free, *const meta = p->meta;
    int top = p->top;
    int got = n < top ? n : top;
    for (int i = 0; i < got; i++) {
        int h = free_stack[--top];
        meta[h * META_STRIDE + M_LEN] = 0;
        meta[h * META_STRIDE + M_FLAGS] = 0;
        out[i] = h;
    }
    p->top = top;
    return got;
}
static void pool_free_burst(struct pool *p, const int *handles, int n) {
    int *const free_stack = p->free;
    int top = p->top;
    if (n > p->capacity - top) abort();
    for (int i = 0; i < n; i++) free_stack[top++] = handles[i];
    p->top = top;
}
static void pool_put(struct pool *p, int h) {
    if (p->top == p->capacity) abort();
    p->free[p->top++] = h;
}

/* ---- TX ---- */
struct txq {
    uint8_t *ring;
    struct cqe64 *cq;
    volatile uint32_t *dbr, *cq_dbr;
    volatile uint64_t *uar; /* one UAR page */
    uint32_t log, mask, size, sqn;
    int inline_max;
    uint32_t pc, cc, cqcc, cqe_outstanding, since_cqe, bf_off;
    int *slot_buf;
    uint8_t *slot_wqebbs;
    struct pool *pool;
    uint64_t packets, bytes;
};
struct txq dp_txq;

/* NOP WQEs from pc up to the ring's end; returns the new producer counter. */
static uint32_t pad_nops(struct txq *q, uint32_t pc, int count) {
    for (int i = 0; i < count; i++) {
        uint32_t slot = pc & q->mask;
        struct ctrl_seg *c = (struct ctrl_seg *)(q->ring + slot * 64);
        c->opmod_idx_opcode = htobe32(((pc & 0xffff) << 8) | OP_NOP);
        c->qpn_ds = htobe32((q->sqn << 8) | 1);
        c->signature = 0; c->rsvd[0] = 0; c->rsvd[1] = 0; c->fm_ce_se = 0; c->imm = 0;
        q->slot_buf[slot] = -1;
        q->slot_wqebbs[slot] = 1;
        pc++;
    }
    return pc;
}

static int tx_reap(struct txq *q) {
    struct cqe64 *const cq = q->cq;
    const uint32_t mask = q->mask, log = q->log;
    int *const slot_buf = q->slot_buf;
    const uint8_t *const slot_wqebbs = q->slot_wqebbs;
    uint32_t cqcc = q->cqcc, cc = q->cc, outstanding = q->cqe_outstanding;
    const uint32_t pc = q->pc;
    /* the pool's stack in locals, its top stored once (as TxQueue.completeUpTo) */
    struct pool *const p = q->pool;
    int *const free_stack = p->free;
    const int capacity = p->capacity;
    int top = p->top;
    int n = 0;
    for (;;) {
        struct cqe64 *cqe = &cq[cqcc & mask];
        uint8_t op_own = cqe->op_own;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if ((op_own & 1) != ((cqcc >> log) & 1) || (op_own >> 4) == CQE_INVALID) break;
        cqcc++;
        n++;
        if (outstanding > 0) outstanding--;
        if ((op_own >> 4) == CQE_REQ) {
            /* the WQEBBs up to the end of the completed WQE first, then a counted walk over their
             * slots (a WQE's later WQEBBs hold size 0 and no buffer), as TxQueue.completeUpTo */
            const uint32_t in_flight = pc - cc;
            const uint32_t at = (uint16_t)(be16toh(cqe->wqe_counter) - cc);
            const uint32_t size = at < in_flight ? slot_wqebbs[(cc + at) & mask] : 0;
            const uint32_t walk = size ? at + size : in_flight;
            for (uint32_t k = 0; k < walk; k++) {
                int h = slot_buf[(cc + k) & mask]; /* the slot is rewritten before it is read again */
                if (h >= 0) {
                    if (top == capacity) abort();
                    free_stack[top++] = h;
                }
            }
            cc += walk;
        } else {
            abort(); /* no errors in the benchmark */
        }
    }
    p->top = top;
    q->cqcc = cqcc;
    q->cc = cc;
    q->cqe_outstanding = outstanding;
    if (n > 0) {
        __atomic_thread_fence(__ATOMIC_RELEASE);
        q->cq_dbr[0] = htobe32(cqcc & 0xffffff);
    }
    return n;
}

__attribute__((noinline)) int tx_send(struct txq *q, const int *bufs, int n) {
    tx_reap(q);
    struct pool *const p = q->pool;
    const int *const meta = p->meta;
    const uint8_t *const mem = p->mem;
    const uint64_t addr_base = p->addr_base;
    const uint32_t buf_size = p->buf_size, lkey = p->lkey, sqn = q->sqn;
    const int inline_max = q->inline_max;
    uint8_t *const ring = q->ring;
    int *const slot_buf = q->slot_buf;
    uint8_t *const slot_wqebbs = q->slot_wqebbs;
    const uint32_t mask = q->mask, size = q->size, cc = q->cc;
    /* the queue's counters in locals, written back once (byte stores into the ring may alias the struct) */
    uint32_t pc = q->pc, since = q->since_cqe, outstanding = q->cqe_outstanding;
    int sent = 0;
    long last_wqe = -1;
    int last_signalled = 0;
    uint64_t burst_bytes = 0;
    while (sent < n) {
        /* A run of plain frames (TxQueue.sendPlain, SendWqe.plain): one WQEBB each, never padded. How many fit before
         * the ring or the CQ is full is worked out once; the loop tests only the frames. */
        {
            const uint64_t ring_room = size - (pc - cc);
            const uint32_t cq_room = size - outstanding;
            const uint64_t cq_frames = cq_room == 0 ? 0 : (uint64_t)COMPLETION_BATCH * cq_room - since;
            const uint64_t room = ring_room < cq_frames ? ring_room : cq_frames;
            const int start = sent;
            const int stop = (uint64_t)(n - start) <= room ? n : start + (int)room;
            const int phase = start + COMPLETION_BATCH - 1 - (int)since; /* the frames that ask for a CQE */
            const uint32_t pc_of_index = pc - start;
            int i = start;
            for (; i < stop; i++) {
                int h = bufs[i];
                int len = meta[h * META_STRIDE + M_LEN];
                int fl = meta[h * META_STRIDE + M_FLAGS];
                if ((fl & (TX_VLAN | TX_LSO)) || len <= inline_max) break;
                int signal = ((i - phase) & (COMPLETION_BATCH - 1)) == 0 || i == n - 1;
                uint32_t p_i = pc_of_index + i;
                uint32_t slot = p_i & mask;
                uint8_t *wqe = ring + slot * 64;
                struct ctrl_seg *c = (struct ctrl_seg *)wqe;
                struct eth_seg *e = (struct eth_seg *)(wqe + 16);
                struct data_seg *d = (struct data_seg *)(wqe + 48);
                c->opmod_idx_opcode = htobe32(((p_i & 0xffff) << 8) | OP_SEND);
                c->qpn_ds = htobe32((sqn << 8) | 4);
                c->signature = 0; c->rsvd[0] = 0; c->rsvd[1] = 0;
                c->fm_ce_se = signal ? CE_ALWAYS : CE_ON_ERROR;
                c->imm = 0;
                e->swp = 0; e->cs_flags = (fl & TX_IP_CSUM ? CS_L3 : 0) | (fl & TX_L4_CSUM ? CS_L4 : 0); e->swp_flags = 0; e->mss = 0; e->metadata = 0;
                e->inline_hdr_sz = htobe16(INLINE_HDR);
                /* a fixed-size copy of the L2 header, as SendWqe.copy18 */
                memcpy(e->inline_hdr_start, mem + (size_t)h * buf_size, INLINE_HDR);
                d->byte_count = htobe32(len - INLINE_HDR);
                d->lkey = htobe32(lkey);
                d->addr = htobe64(addr_base + (uint64_t)h * buf_size + INLINE_HDR);
                slot_buf[slot] = h;
                slot_wqebbs[slot] = 1;
                burst_bytes += len;
            }
            int run = i - start;
            if (run > 0) {
                int past = i - 1 - phase;
                int batched = past >= 0 ? past / COMPLETION_BATCH + 1 : 0;
                int on_batch = past >= 0 && (past & (COMPLETION_BATCH - 1)) == 0;
                int signal = on_batch || i - 1 == n - 1;
                pc = pc_of_index + i;
                outstanding += batched + (signal && !on_batch);
                since = signal ? 0 : since + run - COMPLETION_BATCH * batched;
                last_wqe = ((pc - 1) & mask) * 64;
                last_signalled = signal;
            }
            sent = i;
        }
        if (sent == n) break;
        /* One frame of any other shape (TxQueue.sendOne); here: whole inline, or plain with no room. */
        if (outstanding == size) break;
        int h = bufs[sent];
        int len = meta[h * META_STRIDE + M_LEN];
        int fl = meta[h * META_STRIDE + M_FLAGS];
        if (fl & (TX_VLAN | TX_LSO)) break; /* the reference builds plain WQEs only */
        int whole = len <= inline_max;
        int ihs, inline_ds, data, ds, wqebbs;
        uint32_t slot = pc & mask;
        if (!whole) {
            ihs = INLINE_HDR; inline_ds = (INLINE_HDR - 2 + 15) / 16; data = 1; ds = 2 + inline_ds + 1; wqebbs = 1;
            if (size - (pc - cc) < 1) break;
        } else {
            ihs = len; /* the whole frame inline */
            inline_ds = ihs > 2 ? (ihs - 2 + 15) / 16 : 0;
            data = 0;
            ds = 2 + inline_ds;
            wqebbs = (ds * 16 + 63) / 64;
            int pad = slot + wqebbs > size ? size - slot : 0;
            if (size - (pc - cc) < (uint32_t)(wqebbs + pad)) break;
            if (pad) { pc = pad_nops(q, pc, pad); slot = pc & mask; }
        }
        int signal = ++since >= COMPLETION_BATCH || sent == n - 1;
        if (signal) { since = 0; outstanding++; }
        uint8_t *wqe = ring + slot * 64;
        struct ctrl_seg *c = (struct ctrl_seg *)wqe;
        struct eth_seg *e = (struct eth_seg *)(wqe + 16);
        c->opmod_idx_opcode = htobe32(((pc & 0xffff) << 8) | OP_SEND);
        c->qpn_ds = htobe32((sqn << 8) | ds);
        c->signature = 0; c->rsvd[0] = 0; c->rsvd[1] = 0;
        c->fm_ce_se = signal ? CE_ALWAYS : CE_ON_ERROR;
        c->imm = 0;
        e->swp = 0; e->cs_flags = (fl & TX_IP_CSUM ? CS_L3 : 0) | (fl & TX_L4_CSUM ? CS_L4 : 0); e->swp_flags = 0; e->mss = 0; e->metadata = 0;
        e->inline_hdr_sz = htobe16(ihs);
        if (whole) memcpy(e->inline_hdr_start, mem + (size_t)h * buf_size, ihs);
        else memcpy(e->inline_hdr_start, mem + (size_t)h * buf_size, INLINE_HDR);
        if (data) {
            struct data_seg *d = (struct data_seg *)(wqe + 32 + inline_ds * 16);
            d->byte_count = htobe32(len - ihs);
            d->lkey = htobe32(lkey);
            d->addr = htobe64(addr_base + (uint64_t)h * buf_size + ihs);
            slot_buf[slot] = h;
        } else {
            slot_buf[slot] = -1;
            pool_put(p, h);
        }
        slot_wqebbs[slot] = wqebbs;
        for (int k = 1; k < wqebbs; k++) { slot_wqebbs[slot + k] = 0; slot_buf[slot + k] = -1; }
        pc += wqebbs;
        last_wqe = slot * 64;
        last_signalled = signal;
        burst_bytes += len;
        sent++;
    }
    q->packets += sent;
    q->bytes += burst_bytes;
    if (last_wqe >= 0 && !last_signalled) {
        ((struct ctrl_seg *)(ring + last_wqe))->fm_ce_se = CE_ALWAYS;
        since = 0;
        outstanding++;
    }
    q->pc = pc;
    q->since_cqe = since;
    q->cqe_outstanding = outstanding;
    if (last_wqe >= 0) {
        __atomic_thread_fence(__ATOMIC_RELEASE);
        q->dbr[1] = htobe32(pc & 0xffff);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        uint64_t first8;
        memcpy(&first8, ring + last_wqe, 8);
        q->uar[q->bf_off] = first8;
        q->bf_off ^= 0x100 / 8;
    }
    return sent;
}

/* ---- RX ---- */
struct rxq {
    struct data_seg *ring;
    struct cqe64 *cq;
    volatile uint32_t *dbr, *cq_dbr;
    uint32_t entries, wq_mask, cq_mask, cq_log;
    uint32_t posted, consumed, cqcc;
    int *slot;
    struct pool *pool;
    uint64_t packets, bytes;
};
struct rxq dp_rxq;

static void rx_fill(struct rxq *q) {
    /* buffers straight off the free stack, metadata left for rx_receive to write (as RxQueue.fill) */
    int want = q->entries - (q->posted - q->consumed);
    if (want == 0) return;
    struct pool *const p = q->pool;
    const int *const free_stack = p->free;
    int top = p->top;
    int got = want < top ? want : top;
    if (got == 0) return;
    struct data_seg *const rq = q->ring;
    int *const slots = q->slot;
    const uint32_t m = q->wq_mask;
    const uint64_t base = p->addr_base;
    const uint32_t size = p->buf_size, lkey = p->lkey;
    uint32_t at = q->posted;
    for (int i = 0; i < got; i++, at++) {
        int h = free_stack[--top];
        uint32_t slot = at & m;
        rq[slot].byte_count = htobe32(size);
        rq[slot].lkey = htobe32(lkey);
        rq[slot].addr = htobe64(base + (uint64_t)h * size);
        slots[slot] = h;
    }
    p->top = top;
    q->posted = at;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    q->dbr[0] = htobe32(at & 0xffff);
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
__attribute__((noinline)) int rx_receive(struct rxq *q, int *bufs, int max) {
    /* ownership of up to max plain CQEs, stopping at a compressed session's title as RxQueue.receive does
     * (the benchmark has none), one acquire fence, then decode. RxQueue also counts the RESP_SEND CQEs
     * while polling so that its decode can skip each opcode; here that count cost more (5.45 -> 5.56 ns)
     * than reading op_own again, so C keeps the read. */
    const struct cqe64 *const cq = q->cq;
    const uint32_t cqm = q->cq_mask, log = q->cq_log, m = q->wq_mask;
    int *const slots = q->slot;
    struct pool *const p = q->pool;
    int *const meta = p->meta;
    const uint32_t first = q->cqcc;
    int n = 0, polled = 0;
    uint64_t burst_bytes = 0;
    while (polled < max) {
        uint32_t c = first + polled;
        uint8_t op_own = cq[c & cqm].op_own;
        if ((op_own & 1) != ((c >> log) & 1) || (op_own >> 4) == CQE_INVALID || ((op_own >> 2) & 3) == CQE_FORMAT_COMPRESSED) break;
        polled++;
    }
    if (polled == 0) return 0;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    for (int k = 0; k < polled; k++) {
        const struct cqe64 *cqe = &cq[(first + k) & cqm];
        uint8_t op_own = cqe->op_own;
        uint32_t slot = be16toh(cqe->wqe_counter) & m;
        int h = slots[slot];
        slots[slot] = -1;
        if ((op_own >> 4) != CQE_RESP_SEND || h < 0) {
            if (h >= 0) pool_put(p, h);
            continue;
        }
        int len = be32toh(cqe->byte_cnt);
        uint8_t ext = cqe->hds_ip_ext, hdr = cqe->l4_l3_hdr_type;
        int fl = rx_flags[(ext & 7) | ((hdr >> 2) & 3) << 3 | ((hdr >> 4) & 7) << 5];
        int *pm = &meta[h * META_STRIDE];
        if (hdr & 1) { fl |= RX_VLAN; pm[M_VLAN_MSS] = be16toh(cqe->vlan_info); }
        pm[M_LEN] = len;
        pm[M_FLAGS] = fl;
        pm[M_HASH] = be32toh(cqe->rss_hash_result);
        bufs[n++] = h;
        burst_bytes += len;
    }
    const uint32_t cc = first + polled;
    q->cqcc = cc;
    q->consumed += polled;
    q->packets += n;
    q->bytes += burst_bytes;
    __atomic_thread_fence(__ATOMIC_RELEASE);
    q->cq_dbr[0] = htobe32(cc & 0xffffff);
    rx_fill(q);
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
    struct txq *q = &dp_txq;
    struct pool *p = &dp_pool;
    int bufs[BURST];
    int n = pool_alloc(p, bufs, BURST);
    for (int i = 0; i < n; i++) p->meta[bufs[i] * META_STRIDE + M_LEN] = FRAME;
    int sent = tx_send(q, bufs, n);
    /* the device completes the burst's last WQE */
    struct cqe64 *cqe = &q->cq[tx_dev_pc & q->mask];
    memset(cqe, 0, sizeof *cqe);
    cqe->sop_drop_qpn = htobe32(q->sqn);
    cqe->wqe_counter = htobe16((q->pc - 1) & 0xffff);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    cqe->op_own = (CQE_REQ << 4) | ((tx_dev_pc >> q->log) & 1);
    tx_dev_pc++;
    return sent;
}

static uint32_t rx_dev_pc;
/* The device hands over BURST CQEs: one byte store each, as RxBurstBench.receiveOnly. A burst never
 * crosses the ring's end (BURST divides the ring size, which setup checks), so the pass and the first
 * entry are worked out once and the stores go to consecutive entries. */
static void rx_hand_over(struct rxq *q) {
    const uint32_t pc = rx_dev_pc;
    const uint8_t op_own = (CQE_RESP_SEND << 4) | ((pc >> q->cq_log) & 1);
    struct cqe64 *const first = &q->cq[pc & q->cq_mask];
    for (int i = 0; i < BURST; i++) first[i].op_own = op_own;
    rx_dev_pc = pc + BURST;
}
static uint64_t rx_round(void) {
    struct rxq *q = &dp_rxq;
    struct pool *p = &dp_pool;
    int bufs[BURST];
    rx_hand_over(q);
    int n = rx_receive(q, bufs, BURST);
    /* The application frees the burst as RxBurstBench does (PacketPool.free(bufs, 0, n): one room check,
     * then the pushes) and reads nothing else: a read of each buffer's length here was work the Java
     * side does not do (0.1 ns per packet with one array per item, 0.45 with the strided metadata). */
    pool_free_burst(p, bufs, n);
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
        uint64_t t = fnv(dp_txq.ring, (size_t)dp_txq.size * 64, 0xcbf29ce484222325ull);
        t = fnv((const void *)&dp_txq.dbr[1], 4, t);
        setup(0);
        uint64_t meta = 0xcbf29ce484222325ull;
        for (int r = 0; r < 3; r++) {
            int bufs[BURST];
            rx_hand_over(&dp_rxq);
            int n = rx_receive(&dp_rxq, bufs, BURST);
            for (int i = 0; i < n; i++) {
                const int *pm = &dp_pool.meta[bufs[i] * META_STRIDE];
                int m[4] = {bufs[i], pm[M_LEN], pm[M_FLAGS], pm[M_HASH]};
                meta = fnv(m, sizeof m, meta);
                pool_put(&dp_pool, bufs[i]);
            }
        }
        uint64_t rq = fnv(dp_rxq.ring, (size_t)dp_rxq.entries * sizeof *dp_rxq.ring, 0xcbf29ce484222325ull);
        rq = fnv((const void *)&dp_rxq.dbr[0], 4, rq);
        rq = fnv((const void *)&dp_rxq.cq_dbr[0], 4, rq);
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
        if (phase == 1) printf("%s %.3f %llu\n", argv[1], elapsed / ((double)rounds * BURST), (unsigned long long)(sum + dp_txq.uar[0x800 / 8] + dp_txq.dbr[1]));
    }
    return 0;
}

/* Zeroed, page-aligned memory that stays for the life of the process (a ring, a doorbell record, a UAR). */
static void *dma_alloc(size_t bytes) {
    size_t rounded = (bytes + 4095) & ~(size_t)4095;
    void *m = aligned_alloc(4096, rounded);
    if (m == NULL) abort();
    memset(m, 0, rounded);
    return m;
}

/* Fresh pool and rings, as the Java benchmark's setup builds them. */
static void setup(int tx) {
    const uint32_t log = ring_log_config, ring = 1u << log;
    if (ring % BURST != 0) abort(); /* rx_hand_over's bursts would cross the ring's end */
    rx_flags_init();
    struct pool *p = &dp_pool;
    if (p->mem == NULL) {
        p->capacity = pool_config;
        p->buf_size = buf_config;
        p->lkey = lkey_config;
        p->mem = dma_alloc((size_t)p->capacity * p->buf_size);
        p->free = dma_alloc(p->capacity * sizeof *p->free);
        p->meta = dma_alloc(p->capacity * META_STRIDE * sizeof *p->meta);
#ifdef DP_BENCH_SELFTEST
        p->addr_base = 0x100000000ull; /* the equivalence test gives every region this bus address, in C and in Java */
#else
        p->addr_base = (uint64_t)(uintptr_t)p->mem;
#endif
    }
    for (int i = 0; i < p->capacity; i++) p->free[i] = p->capacity - 1 - i;
    p->top = p->capacity;
    for (int i = 0; i < p->capacity; i++) for (int j = 0; j < FRAME; j++) p->mem[(size_t)i * p->buf_size + j] = (uint8_t)(i + j);

    struct txq *t = &dp_txq;
    if (t->ring == NULL) {
        t->ring = dma_alloc((size_t)ring * 64);
        t->cq = dma_alloc(ring * sizeof *t->cq);
        t->dbr = dma_alloc(8);
        t->cq_dbr = dma_alloc(8);
        t->uar = dma_alloc(4096);
        t->slot_buf = dma_alloc(ring * sizeof *t->slot_buf);
        t->slot_wqebbs = dma_alloc(ring);
    }
    t->log = log; t->mask = ring - 1; t->size = ring;
    t->sqn = sqn_config;
    t->inline_max = inline_max_config;
    memset(t->ring, 0, (size_t)ring * 64);
    t->pc = t->cc = t->cqcc = t->cqe_outstanding = t->since_cqe = 0;
    t->bf_off = 0x800 / 8;
    t->dbr[0] = t->dbr[1] = t->cq_dbr[0] = 0;
    t->pool = p;

    struct rxq *r = &dp_rxq;
    if (r->ring == NULL) {
        r->ring = dma_alloc(ring * sizeof *r->ring);
        r->cq = dma_alloc(ring * sizeof *r->cq);
        r->dbr = dma_alloc(8);
        r->cq_dbr = dma_alloc(8);
        r->slot = dma_alloc(ring * sizeof *r->slot);
    }
    r->entries = ring; r->wq_mask = ring - 1; r->cq_mask = ring - 1; r->cq_log = log;
    memset(r->ring, 0, ring * sizeof *r->ring);
    r->posted = r->consumed = r->cqcc = 0;
    r->dbr[0] = r->cq_dbr[0] = 0;
    r->pool = p;
    tx_dev_pc = rx_dev_pc = 0;
    for (uint32_t i = 0; i < ring; i++) {
        t->cq[i].op_own = (CQE_INVALID << 4) | 1;
        t->slot_buf[i] = -1;
        r->slot[i] = -1;
        struct cqe64 *c = &r->cq[i];
        c->byte_cnt = htobe32(FRAME);
        c->wqe_counter = htobe16(i);
        c->rss_hash_result = htobe32(0x9e3779b9u * i);
        c->hds_ip_ext = 7;
        c->l4_l3_hdr_type = (2 << 4) | (2 << 2);
        c->op_own = (CQE_INVALID << 4) | 1;
    }
    if (!tx) rx_fill(r);
}
