/*
 * C reference for prmkit's datapath benchmarks: the same work as the JMH benchmarks, written the way
 * the kernel's and rdma-core's send/receive paths write it (whole big-endian words through struct
 * members, htobe32/be32toh, memcpy for inline headers). Built with gcc -O2 by `prmkit bench`.
 *
 *   prm_bench wqe-build|cqe-parse SECONDS
 *
 * prints one line: "<case> <ns per WQE or CQE> <checksum>".
 * Layouts (struct members, masks) follow rdma-core's mlx5dv.h; they are declared here so the benchmark
 * needs no headers beyond libc.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 1024
#define WQEBB 64

struct ctrl_seg {            /* 16 bytes */
    uint32_t opmod_idx_opcode;
    uint32_t qpn_ds;
    uint8_t signature;
    uint8_t rsvd[2];
    uint8_t fm_ce_se;
    uint32_t imm;
} __attribute__((packed, aligned(4)));

struct eth_seg {             /* 32 bytes with the 16 inline header bytes that follow it */
    uint32_t rsvd0;
    uint8_t cs_flags;
    uint8_t rsvd1;
    uint16_t mss;
    uint32_t rsvd2;
    uint16_t inline_hdr_sz;
    uint8_t inline_hdr_start[2];
    uint8_t inline_hdr[16];
};

struct data_seg {            /* 16 bytes */
    uint32_t byte_count;
    uint32_t lkey;
    uint64_t addr;
};

struct cqe64 {
    uint8_t rsvd0[28];
    uint8_t hds_ip_ext;
    uint8_t l4_l3_hdr_type;
    uint16_t vlan_info;
    uint8_t rsvd32[12];
    uint32_t byte_cnt;
    uint64_t timestamp;
    uint32_t sop_drop_qpn;
    uint16_t wqe_counter;
    uint8_t signature;
    uint8_t op_own;
};

enum { OPCODE_SEND = 0x0a, CQ_UPDATE = 2 << 2, L3_CSUM = 1 << 6, L4_CSUM = 1 << 7, INLINE_HDR = 18 };
enum { CQE_L3_OK = 1 << 1, CQE_L4_OK = 1 << 2, CQE_VLAN = 1 << 0 };

uint8_t ring[RING * WQEBB] __attribute__((aligned(64)));
uint8_t headers[RING][INLINE_HDR];

/* One send WQE per ring slot: ctrl + eth (18 B inline L2 header) + data = 4 x 16 B = one WQEBB. */
__attribute__((noinline)) void build_ring(uint32_t pi0, uint32_t qpn, uint32_t lkey, uint64_t addr, uint32_t len) {
    for (uint32_t i = 0; i < RING; i++) {
        uint32_t pi = pi0 + i;
        uint8_t *wqe = ring + (size_t)(pi & (RING - 1)) * WQEBB;
        struct ctrl_seg *c = (struct ctrl_seg *)wqe;
        struct eth_seg *e = (struct eth_seg *)(wqe + 16);
        struct data_seg *d = (struct data_seg *)(wqe + 48);
        const uint8_t *h = headers[i];

        c->opmod_idx_opcode = htobe32(((pi & 0xffff) << 8) | OPCODE_SEND);
        c->qpn_ds = htobe32((qpn << 8) | 4);
        c->signature = 0;
        c->rsvd[0] = 0;
        c->rsvd[1] = 0;
        c->fm_ce_se = CQ_UPDATE;
        c->imm = 0;

        e->rsvd0 = 0;
        e->cs_flags = L3_CSUM | L4_CSUM;
        e->rsvd1 = 0;
        e->mss = 0;
        e->rsvd2 = 0;
        e->inline_hdr_sz = htobe16(INLINE_HDR);
        memcpy(e->inline_hdr_start, h, INLINE_HDR);

        d->byte_count = htobe32(len);
        d->lkey = htobe32(lkey);
        d->addr = htobe64(addr + (uint64_t)i * 2048);
    }
}

/* Reads what an Ethernet receive path reads from each CQE. */
__attribute__((noinline)) uint64_t parse_ring(void) {
    uint64_t acc = 0;
    const struct cqe64 *cq = (const struct cqe64 *)ring;
    for (uint32_t i = 0; i < RING; i++) {
        const struct cqe64 *cqe = &cq[i];
        uint8_t op_own = cqe->op_own;
        uint32_t owner = op_own & 1;
        uint32_t opcode = op_own >> 4;
        uint32_t bytes = be32toh(cqe->byte_cnt);
        uint32_t counter = be16toh(cqe->wqe_counter);
        uint32_t csum_ok = (cqe->hds_ip_ext & (CQE_L3_OK | CQE_L4_OK)) == (CQE_L3_OK | CQE_L4_OK);
        uint32_t vlan = (cqe->l4_l3_hdr_type & CQE_VLAN) ? (be16toh(cqe->vlan_info) & 0xfff) : 0;
        acc += (uint64_t)owner + opcode + bytes + counter + csum_ok + vlan;
    }
    return acc;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void fill_cqes(void) {
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof ring; i++) {
        x = x * 1103515245u + 12345u;
        ring[i] = (uint8_t)(x >> 16);
    }
}

int main(int argc, char **argv) {
#ifdef PRM_BENCH_SELFTEST
    /* For the equivalence test: the CQE checksum of one pass and the byte sum of one built ring. */
    if (argc == 3 && strcmp(argv[1], "selftest") == 0) {
        for (int i = 0; i < RING; i++)
            for (int j = 0; j < INLINE_HDR; j++) headers[i][j] = (uint8_t)(i + j);
        fill_cqes();
        uint64_t cqe_sum = parse_ring();
        memset(ring, 0, sizeof ring);
        build_ring(0, 0x1234, 0xabcd, 0x100000000ull, 1500);
        uint64_t bytes = 0;
        for (size_t i = 0; i < sizeof ring; i++) bytes += ring[i];
        printf("selftest %llu %llu\n", (unsigned long long)cqe_sum, (unsigned long long)bytes);
        return 0;
    }
#endif
    if (argc != 3) {
        fprintf(stderr, "usage: %s wqe-build|cqe-parse SECONDS\n", argv[0]);
        return 2;
    }
    double seconds = atof(argv[2]);
    for (int i = 0; i < RING; i++)
        for (int j = 0; j < INLINE_HDR; j++) headers[i][j] = (uint8_t)(i + j);
    int wqe = strcmp(argv[1], "wqe-build") == 0;
    if (!wqe && strcmp(argv[1], "cqe-parse") != 0) {
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    if (!wqe) fill_cqes();
    uint64_t sum = 0, rounds = 0;
    /* Warm up for a fifth of the time, then measure in batches until the time is used. */
    for (int phase = 0; phase < 2; phase++) {
        double budget = (phase == 0 ? 0.2 : 1.0) * seconds * 1e9;
        double start = now_ns(), elapsed = 0;
        rounds = 0;
        while (elapsed < budget) {
            for (int k = 0; k < 256; k++, rounds++) {
                if (wqe)
                    build_ring((uint32_t)rounds * RING, 0x1234, 0xabcd, 0x100000000ull, 1500);
                else
                    sum += parse_ring();
            }
            elapsed = now_ns() - start;
        }
        if (phase == 1) {
            for (size_t i = 0; i < sizeof ring; i += 8) sum += ring[i];
            printf("%s %.3f %llu\n", argv[1], elapsed / ((double)rounds * RING), (unsigned long long)sum);
        }
    }
    return 0;
}
