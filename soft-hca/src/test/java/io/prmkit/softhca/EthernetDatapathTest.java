package io.prmkit.softhca;

import static io.prmkit.softhca.Cmds.header;
import static org.junit.jupiter.api.Assertions.*;

import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.CmdPas;
import io.prmkit.mlx5.CompletionMode;
import io.prmkit.mlx5.CqArmDoorbell;
import io.prmkit.mlx5.CqDoorbellRecord;
import io.prmkit.mlx5.Cqc;
import io.prmkit.mlx5.Cqe64;
import io.prmkit.mlx5.CqeHdsIpExt;
import io.prmkit.mlx5.CqeErrorSyndrome;
import io.prmkit.mlx5.CqeOpcode;
import io.prmkit.mlx5.CreateCqIn;
import io.prmkit.mlx5.CreateCqOut;
import io.prmkit.mlx5.CreateEqIn;
import io.prmkit.mlx5.CreateEqOut;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.CreateRqIn;
import io.prmkit.mlx5.CreateRqOut;
import io.prmkit.mlx5.CreateSqIn;
import io.prmkit.mlx5.CreateSqOut;
import io.prmkit.mlx5.Eqc;
import io.prmkit.mlx5.Eqe;
import io.prmkit.mlx5.EqeType;
import io.prmkit.mlx5.ErrCqe;
import io.prmkit.mlx5.EthCsFlags;
import io.prmkit.mlx5.FlowTableType;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.QueryVportCounterIn;
import io.prmkit.mlx5.QueryVportCounterOut;
import io.prmkit.mlx5.RqState;
import io.prmkit.mlx5.Rqc;
import io.prmkit.mlx5.SendWqeOpcode;
import io.prmkit.mlx5.SetFlowTableRootIn;
import io.prmkit.mlx5.SetFlowTableRootOut;
import io.prmkit.mlx5.SqState;
import io.prmkit.mlx5.Sqc;
import io.prmkit.mlx5.TrafficCounter;
import io.prmkit.mlx5.UarPage;
import io.prmkit.mlx5.Wq;
import io.prmkit.mlx5.WqDoorbellRecord;
import io.prmkit.mlx5.WqType;
import io.prmkit.mlx5.WqeCtrlSeg;
import io.prmkit.mlx5.WqeDataSeg;
import io.prmkit.mlx5.WqeEthSeg;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.wire.Ethernet;
import io.prmkit.softhca.wire.ParsedFrame;
import io.prmkit.softhca.wire.TestFrames;
import io.prmkit.softhca.wire.Tools;
import io.prmkit.softhca.wire.Wire;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The datapath end to end, driven only through BAR 0 and DMA memory: bring-up and object commands,
 * WQEs and doorbell records in DMA memory, SQ doorbells and CQ arming through the UAR page, CQEs
 * and EQEs read back from DMA memory.
 */
class EthernetDatapathTest {
    static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    /** One device set up as an Ethernet driver does: EQ, CQs, SQ, RQ, TIR and a catch-all root table. */
    static final class Eth implements AutoCloseable {
        final TestHost h;
        final List<DmaRegion> keep = new ArrayList<>();
        final int uar, pd, td, lkey, eqn, txCqn, rxCqn, sqn, rqn, counter;
        final DmaRegion eqRing, txCq, txCqDb, rxCq, rxCqDb, sqRing, sqDb, rqRing, rqDb, buffers, data;
        /**
         * CQ, SQ and RQ rings and doorbell records in umems (CREATE_UMEM) named by id and offset, as
         * DEVX users give them: each ring is the second page of a two-page umem whose first page is
         * another one, each doorbell record the start of a one-page umem; frame buffers are reached
         * through an MTT mkey translated by a umem (mkey_umem_valid), at virtual addresses.
         */
        final boolean umems;
        /** The virtual address the umem mkey of the frame buffers starts at (any will do; the umem says where the bytes are). */
        static final long UMEM_VA = 0x7f12_3400_0000L;
        int eqCi, txCc, rxCc, pc, posted;

        Eth(SoftHca.Options options, ExecutionMode mode) {
            this(options, mode, -1);
        }

        /** With {@code rxCompression} ≥ 0 the receive CQ has CQE compression on, minis in that {@code mini_cqe_res_format}. */
        Eth(SoftHca.Options options, ExecutionMode mode, int rxCompression) {
            this(options, mode, rxCompression, false);
        }

        Eth(SoftHca.Options options, ExecutionMode mode, int rxCompression, boolean umems) {
            this.umems = umems;
            h = TestHost.started(options, mode);
            keep.addAll(Cmds.bringUp(h));
            uar = Objs.uar(h);
            pd = Objs.pd(h);
            td = Objs.td(h);
            counter = Objs.qCounter(h);
            buffers = dma(64 * 2048);
            data = dma(64 * 1024);
            MemorySegment mk;
            if (umems) {
                // one umem over the frame buffers and the send data, an MTT mkey on it from UMEM_VA
                long[] pages = new long[(int) ((buffers.size() + data.size()) / 4096)];
                for (int i = 0; i < pages.length; i++) pages[i] = i < buffers.size() / 4096 ? buffers.busAddress(i * 4096L) : data.busAddress(i * 4096L - buffers.size());
                mk = ObjectCommandsTest.mkeyIn(pd, MkcAccessMode.MTT, 0);
                long m = CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET;
                Mkc.start_addr$set(mk, m, UMEM_VA);
                Mkc.len$set(mk, m, buffers.size() + data.size());
                Mkc.log_page_size$set(mk, m, 12);
                CreateMkeyIn.mkey_umem_valid$set(mk, true);
                CreateMkeyIn.mkey_umem_id$set(mk, UmemCommandsTest.umem(h, pages));
            } else {
                mk = ObjectCommandsTest.mkeyIn(pd, MkcAccessMode.PA, 0);
                Mkc.length64$set(mk, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, true);
            }
            lkey = CreateMkeyOut.mkey_index(h.exec(mk, CreateMkeyOut.SIZE).ok().out()) << 8 | 0x42;
            eqRing = dma(4096);
            for (int i = 0; i < 64; i++) Eqe.Device.owner$set(eqRing.segment(), i * 64L, true);
            MemorySegment eq = header(CmdOpcode.CREATE_EQ, CreateEqIn.SIZE + 8);
            long ec = CreateEqIn.eq_context_entry$BYTE_OFFSET;
            Eqc.log_eq_size$set(eq, ec, 6);
            Eqc.uar_page$set(eq, ec, uar);
            Eqc.intr$set(eq, ec, 0);
            CreateEqIn.event_bitmask$set(eq, 0, 1L << EqeType.COMP.value | 1L << EqeType.CQ_ERROR.value | 1L << EqeType.PORT_CHANGE.value);
            CreateEqIn.pas$set(eq, 0, eqRing.busAddress());
            eqn = CreateEqOut.eq_number(h.exec(eq, CreateEqOut.SIZE).ok().out());
            txCq = dma(4096);
            txCqDb = dma(64);
            txCqn = cq(txCq, txCqDb, -1);
            rxCq = dma(4096);
            rxCqDb = dma(64);
            rxCqn = cq(rxCq, rxCqDb, rxCompression);
            int tisn = Objs.tis(h, td);
            sqRing = dma(4096);
            sqDb = dma(64);
            MemorySegment sq = header(CmdOpcode.CREATE_SQ, CreateSqIn.SIZE + 8);
            long sc = CreateSqIn.ctx$BYTE_OFFSET;
            Sqc.cqn$set(sq, sc, txCqn);
            Sqc.tis_lst_sz$set(sq, sc, 1);
            Sqc.tis_num_0$set(sq, sc, tisn);
            Sqc.min_wqe_inline_mode$set(sq, sc, 1);
            wq(sq, sc + Sqc.wq$BYTE_OFFSET, sqRing, sqDb, 6, 6);
            sqn = CreateSqOut.sqn(h.exec(sq, CreateSqOut.SIZE).ok().out());
            Objs.modifySq(h, sqn, SqState.RST$VALUE, SqState.RDY$VALUE).ok();
            rqRing = dma(4096);
            rqDb = dma(64);
            MemorySegment rq = header(CmdOpcode.CREATE_RQ, CreateRqIn.SIZE + 8);
            long rc = CreateRqIn.ctx$BYTE_OFFSET;
            Rqc.cqn$set(rq, rc, rxCqn);
            Rqc.counter_set_id$set(rq, rc, counter);
            wq(rq, rc + Rqc.wq$BYTE_OFFSET, rqRing, rqDb, 6, 4);
            rqn = CreateRqOut.rqn(h.exec(rq, CreateRqOut.SIZE).ok().out());
            Objs.modifyRq(h, rqn, RqState.RST$VALUE, RqState.RDY$VALUE).ok();
            int tirn = Objs.tir(h, Objs.tirDirectIn(td, rqn));
            int table = Objs.flowTable(h, Objs.flowTableIn(FlowTableType.NIC_RX, 4, 0));
            int group = Objs.flowGroup(h, Objs.flowGroupIn(table, 0, 15));
            Objs.fte(h, Objs.fteToTirIn(table, group, 0, tirn)).ok();
            MemorySegment root = header(CmdOpcode.SET_FLOW_TABLE_ROOT, SetFlowTableRootIn.SIZE);
            SetFlowTableRootIn.table_type$set(root, FlowTableType.NIC_RX);
            SetFlowTableRootIn.table_id$set(root, table);
            h.exec(root, SetFlowTableRootOut.SIZE).ok();
        }

        /** The address a WQE gives for byte {@code off} of {@code r} (buffers or data): its bus address, or its place behind {@link #lkey} when that is a umem mkey. */
        long addr(DmaRegion r, long off) {
            if (!umems) return r.busAddress(off);
            return UMEM_VA + (r == buffers ? 0 : buffers.size()) + off;
        }

        DmaRegion dma(long size) {
            DmaRegion r = h.f.dma().allocate(size, 4096);
            keep.add(r);
            return r;
        }

        int cq(DmaRegion ring, DmaRegion db, int compression) {
            for (int i = 0; i < 64; i++) {
                Cqe64.Device.opcode$set(ring.segment(), i * 64L, CqeOpcode.INVALID);
                Cqe64.Device.owner$set(ring.segment(), i * 64L, true);
            }
            MemorySegment in = header(CmdOpcode.CREATE_CQ, CreateCqIn.SIZE + 8);
            long c = CreateCqIn.cq_context$BYTE_OFFSET;
            Cqc.log_cq_size$set(in, c, 6);
            Cqc.uar_page$set(in, c, uar);
            Cqc.c_eqn_or_apu_element$set(in, c, eqn);
            if (umems) {
                CreateCqIn.cq_umem_valid$set(in, true);
                CreateCqIn.cq_umem_id$set(in, UmemCommandsTest.umem(h, dma(4096), ring));
                CreateCqIn.cq_umem_offset$set(in, 4096);
                Cqc.dbr_umem_valid$set(in, c, true);
                Cqc.dbr_umem_id$set(in, c, UmemCommandsTest.umem(h, db));
            } else {
                Cqc.dbr_addr$set(in, c, db.busAddress());
                CreateCqIn.pas$set(in, 0, ring.busAddress());
            }
            if (compression >= 0) {
                Cqc.cqe_comp_en$set(in, c, true);
                Cqc.mini_cqe_res_format$set(in, c, compression);
            }
            return CreateCqOut.cqn(h.exec(in, CreateCqOut.SIZE).ok().out());
        }

        void wq(MemorySegment in, long wq, DmaRegion ring, DmaRegion db, int logSize, int logStride) {
            Wq.wq_type$set(in, wq, WqType.CYCLIC);
            Wq.pd$set(in, wq, pd);
            Wq.uar_page$set(in, wq, uar);
            Wq.log_wq_stride$set(in, wq, logStride);
            Wq.log_wq_sz$set(in, wq, logSize);
            if (umems) {
                Wq.wq_umem_valid$set(in, wq, true);
                Wq.wq_umem_id$set(in, wq, UmemCommandsTest.umem(h, dma(4096), ring));
                Wq.wq_umem_offset$set(in, wq, 4096);
                Wq.dbr_umem_valid$set(in, wq, true);
                Wq.dbr_umem_id$set(in, wq, UmemCommandsTest.umem(h, db));
                return;
            }
            Wq.dbr_addr$set(in, wq, db.busAddress());
            MemorySegment pas = Wq.pas$elem(in, wq, 0);
            CmdPas.pa_h$set(pas, (int) (ring.busAddress() >>> 32));
            CmdPas.pa_l$setUnchecked(pas, (int) (ring.busAddress() >>> 12));
        }

        /** Posts {@code n} receive WQEs of 2 KiB each. */
        void postRx(int n) {
            for (int i = 0; i < n; i++) {
                int slot = posted & 63;
                WqeDataSeg.writer(rqRing.segment(), slot * 16L).byte_count(2048).lkey(lkey).addr(addr(buffers, slot * 2048L)).write();
                posted++;
            }
            VarHandle.storeStoreFence();
            WqDoorbellRecord.receive_counter$set(rqDb.segment(), posted & 0xffff);
        }

        /** One SEND WQE for {@code frame}: 18 bytes inline, the rest by pointer, checksums offloaded. */
        void send(byte[] frame) {
            MemorySegment.copy(frame, 0, data.segment(), ValueLayout.JAVA_BYTE, 0, frame.length);
            long o = (pc & 63) * 64L;
            MemorySegment r = sqRing.segment();
            WqeCtrlSeg.writer(r, o).opcode(SendWqeOpcode.SEND).wqe_index(pc & 0xffff).qpn(sqn).ds(4).ce(CompletionMode.CQE_ALWAYS).write();
            WqeEthSeg.writer(r, o + 16).inline_hdr_sz(18).cs_flags(EthCsFlags.L3_CSUM$MASK | EthCsFlags.L4_CSUM$MASK).write();
            MemorySegment.copy(frame, 0, r, ValueLayout.JAVA_BYTE, o + 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
            WqeDataSeg.writer(r, o + 48).byte_count(frame.length - 18).lkey(lkey).addr(addr(data, 18)).write();
            pc++;
            VarHandle.storeStoreFence();
            WqDoorbellRecord.send_counter$set(sqDb.segment(), pc & 0xffff);
            VarHandle.fullFence();
            h.bar.write64(uar * 4096L + UarPage.bf_registers$BYTE_OFFSET, r.get(BE64, o));
        }

        void armTxCq() {
            MemorySegment w = MemorySegment.ofArray(new byte[8]);
            CqArmDoorbell.consumer_index$set(w, txCc & 0xffffff);
            CqArmDoorbell.cqn$set(w, txCqn);
            h.bar.write64(uar * 4096L + UarPage.cq_doorbell$BYTE_OFFSET, w.get(BE64, 0));
        }

        void armEq() {
            MemorySegment w = MemorySegment.ofArray(new byte[4]);
            io.prmkit.mlx5.EqDoorbell.eqn$set(w, eqn);
            io.prmkit.mlx5.EqDoorbell.consumer_index$set(w, eqCi);
            h.bar.write32(uar * 4096L + UarPage.eq_doorbell_arm$BYTE_OFFSET, w.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN), 0));
        }

        /** Waits (bounded) for the device: step mode runs it idle, thread mode spins until {@code done} or 10 s. */
        void settle(java.util.function.BooleanSupplier done) {
            if (h.mode == ExecutionMode.STEP) {
                h.hca.runUntilIdle();
                return;
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!done.getAsBoolean() && System.nanoTime() < deadline) Thread.onSpinWait();
        }

        MemorySegment cqe(DmaRegion ring, int cc) {
            MemorySegment c = ring.segment().asSlice((cc & 63) * 64L, 64);
            if (Cqe64.owner(c) != (((cc >>> 6) & 1) == 1) || Cqe64.opcode(c) == CqeOpcode.INVALID.value) return null;
            VarHandle.acquireFence();
            return MemorySegment.ofArray(c.toArray(ValueLayout.JAVA_BYTE));
        }

        MemorySegment txCqe() {
            MemorySegment c = cqe(txCq, txCc);
            if (c != null) CqDoorbellRecord.consumer_index$set(txCqDb.segment(), ++txCc & 0xffffff);
            return c;
        }

        MemorySegment rxCqe() {
            MemorySegment c = cqe(rxCq, rxCc);
            if (c != null) CqDoorbellRecord.consumer_index$set(rxCqDb.segment(), ++rxCc & 0xffffff);
            return c;
        }

        MemorySegment eqe() {
            MemorySegment e = eqRing.segment().asSlice((eqCi & 63) * 64L, 64);
            if (Eqe.owner(e) != (((eqCi >>> 6) & 1) == 1)) return null;
            eqCi++;
            return MemorySegment.ofArray(e.toArray(ValueLayout.JAVA_BYTE));
        }

        byte[] received(int wqeCounter, int len) {
            return buffers.segment().asSlice((wqeCounter & 63) * 2048L, len).toArray(ValueLayout.JAVA_BYTE);
        }

        @Override
        public void close() {
            h.close();
        }
    }

    /** What one run saw, to compare step and thread mode. */
    record Outcome(List<String> cqes, List<byte[]> frames) {}

    Outcome loopbackRun(ExecutionMode mode) {
        return loopbackRun(mode, false);
    }

    Outcome loopbackRun(ExecutionMode mode, boolean umems) {
        SoftHca.Options options = umems ? new SoftHca.Options().caps(CapsProfile.defaults().withDevx()) : new SoftHca.Options();
        try (Eth e = new Eth(options, mode, -1, umems)) {
            e.postRx(4);
            List<String> seen = new ArrayList<>();
            List<byte[]> frames = new ArrayList<>();
            byte[][] sent = {
                TestFrames.ipv4(Ethernet.PROTO_UDP, 1000, 2000, TestFrames.payload(64, 1)),
                TestFrames.ipv6(Ethernet.PROTO_TCP, 3000, 80, TestFrames.payload(500, 2)),
                TestFrames.ipv4(Ethernet.PROTO_TCP, 4000, 443, TestFrames.payload(1400, 3)),
            };
            for (byte[] f : sent) {
                e.send(f);
                MemorySegment[] t = new MemorySegment[1], r = new MemorySegment[1];
                e.settle(() -> (t[0] != null || (t[0] = e.txCqe()) != null) && (r[0] != null || (r[0] = e.rxCqe()) != null));
                if (t[0] == null) t[0] = e.txCqe();
                if (r[0] == null) r[0] = e.rxCqe();
                assertNotNull(t[0], "TX CQE");
                assertNotNull(r[0], "RX CQE");
                assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(t[0]), () -> "syndrome " + ErrCqe.syndrome(t[0]));
                assertEquals(CqeOpcode.RESP_SEND.value, Cqe64.opcode(r[0]));
                assertEquals(f.length, Cqe64.byte_cnt(r[0]));
                assertEquals(CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK, Cqe64.hds_ip_ext(r[0]) & (CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK));
                byte[] got = e.received(Cqe64.wqe_counter(r[0]), f.length);
                assertTrue(new ParsedFrame().parse(MemorySegment.ofArray(got), 0, got.length, true).l4ChecksumOk);
                seen.add("tx " + Cqe64.wqe_counter(t[0]) + " rx " + Cqe64.wqe_counter(r[0]) + " " + Cqe64.byte_cnt(r[0]) + " " + Cqe64.l4_hdr_type(r[0]));
                frames.add(got);
            }
            // a fourth frame finds one posted WQE, a fifth none: out_of_buffer
            e.send(sent[0]);
            e.send(sent[0]);
            MemorySegment[] t = new MemorySegment[2];
            e.settle(() -> (t[0] != null || (t[0] = e.txCqe()) != null) && (t[1] != null || (t[1] = e.txCqe()) != null));
            MemorySegment q = header(CmdOpcode.QUERY_Q_COUNTER, QueryQCounterIn.SIZE);
            QueryQCounterIn.counter_set_id$set(q, e.counter);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int oob;
            do {
                oob = QueryQCounterOut.out_of_buffer(e.h.exec(q, QueryQCounterOut.SIZE).ok().out());
            } while (oob == 0 && mode == ExecutionMode.THREAD && System.nanoTime() < deadline);
            assertEquals(1, oob);
            seen.add("out_of_buffer " + oob);
            MemorySegment v = e.h.exec(header(CmdOpcode.QUERY_VPORT_COUNTER, QueryVportCounterIn.SIZE), QueryVportCounterOut.SIZE).ok().out();
            // PPCNT, exact to the frame: five sent, five reached the MAC, one of them found no WQE
            MemorySegment r = PortAndVportCommandsTest.reg(io.prmkit.mlx5.RegisterId.PPCNT, io.prmkit.mlx5.PpcntReg.layout(), false);
            long reg = PortAndVportCommandsTest.REG;
            io.prmkit.mlx5.PpcntReg.local_port$set(r, reg, 1);
            io.prmkit.mlx5.PpcntReg.grp$set(r, reg, io.prmkit.mlx5.PpcntGrp.IEEE_802_3);
            long grp = io.prmkit.mlx5.AccessRegisterOut.register_data$BYTE_OFFSET + io.prmkit.mlx5.PpcntReg.counter_set$BYTE_OFFSET;
            MemorySegment p = PortAndVportCommandsTest.access(e.h, r).ok().out();
            assertEquals(5, io.prmkit.mlx5.Eth8023CntrsGrpDataLayout.a_frames_transmitted_ok_low(p, grp));
            assertEquals(5, io.prmkit.mlx5.Eth8023CntrsGrpDataLayout.a_frames_received_ok_low(p, grp));
            long octets = 0;
            for (byte[] f : sent) octets += Math.max(60, f.length);
            octets += 2L * sent[0].length;
            assertEquals(octets, io.prmkit.mlx5.Eth8023CntrsGrpDataLayout.a_octets_transmitted_ok_low(p, grp));
            io.prmkit.mlx5.PpcntReg.grp$set(r, reg, io.prmkit.mlx5.PpcntGrp.RFC_2863);
            p = PortAndVportCommandsTest.access(e.h, r).ok().out();
            assertEquals(1, io.prmkit.mlx5.Eth2863CntrsGrpDataLayout.if_in_discards_low(p, grp), "the frame that found no WQE");
            seen.add("vport tx " + TrafficCounter.packets(v, QueryVportCounterOut.transmitted_eth_unicast$BYTE_OFFSET)
                    + " rx " + TrafficCounter.packets(v, QueryVportCounterOut.received_eth_unicast$BYTE_OFFSET));
            return new Outcome(seen, frames);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void framesLoopBackThroughCommandsDoorbellsAndRings(ExecutionMode mode) {
        Outcome o = loopbackRun(mode);
        assertEquals("vport tx 5 rx 4", o.cqes().get(o.cqes().size() - 1));
    }

    /**
     * The same traffic with every CQ, SQ and RQ ring and doorbell record in a umem (DEVX): the
     * device reads WQEs and doorbell records and writes CQEs where the umems' MTT entries point
     * (through the IOMMU), so the completions and frames are the same as with page lists.
     */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void framesLoopBackThroughRingsAndDoorbellRecordsInUmems(ExecutionMode mode) {
        Outcome plain = loopbackRun(mode, false);
        Outcome umem = loopbackRun(mode, true);
        assertEquals(plain.cqes(), umem.cqes());
        assertEquals(plain.frames().size(), umem.frames().size());
        for (int i = 0; i < plain.frames().size(); i++) assertArrayEquals(plain.frames().get(i), umem.frames().get(i));
    }

    @Test
    void stepModeAndThreadModeGiveTheSameResults() {
        Outcome step = loopbackRun(ExecutionMode.STEP);
        Outcome thread = loopbackRun(ExecutionMode.THREAD);
        assertEquals(step.cqes(), thread.cqes());
        assertEquals(step.frames().size(), thread.frames().size(), "as many frames in either mode");
        assertTrue(step.frames().size() > 0, "frames came back");
        for (int i = 0; i < step.frames().size(); i++) assertArrayEquals(step.frames().get(i), thread.frames().get(i), "frame " + i);
    }

    /** 40 frames sent back to back into a receive CQ with CQE compression, read by the kernel's algorithm. */
    List<CqeDecoder.Completion> compressedRun(ExecutionMode mode) {
        List<String> trace = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Eth e = new Eth(new SoftHca.Options().trace(trace::add), mode, io.prmkit.mlx5.MiniCqeResFormat.CSUM$VALUE)) {
            e.postRx(40);
            CqeDecoder d = new CqeDecoder(e.rxCq.segment(), 6, e.rxCqDb.segment(), io.prmkit.mlx5.MiniCqeResFormat.CSUM$VALUE);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1000, 2000, TestFrames.payload(100, 1));
            for (int i = 0; i < 40; i++) e.send(f);
            List<CqeDecoder.Completion> got = new ArrayList<>();
            e.settle(() -> {
                got.addAll(d.drain());
                while (e.txCqe() != null) {} // keep the send CQ from overrunning
                return got.size() >= 40;
            });
            got.addAll(d.drain());
            if (mode == ExecutionMode.STEP) {
                assertEquals(List.of(16, 16, 8), d.lengths(), "one device pass: sessions of the maximum");
                List<String> sessions = trace.stream().filter(l -> l.contains("compressed session")).toList();
                assertEquals(3, sessions.size(), "the trace shows each session");
                assertTrue(sessions.get(1).endsWith("compressed session of 16 CQEs at index 16 (title slot 16, wqe_counter 16..31)"), sessions.get(1));
            }
            return got;
        }
    }

    @Test
    void sessionsFollowTheDevicesCqeCompressionMaxNum() {
        SoftHca.Options o = new SoftHca.Options().caps(CapsProfile.defaults().withGeneral("cqe_compression_max_num", 5));
        try (Eth e = new Eth(o, ExecutionMode.STEP, io.prmkit.mlx5.MiniCqeResFormat.HASH$VALUE)) {
            e.postRx(12);
            CqeDecoder d = new CqeDecoder(e.rxCq.segment(), 6, e.rxCqDb.segment(), io.prmkit.mlx5.MiniCqeResFormat.HASH$VALUE);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1000, 2000, TestFrames.payload(100, 1));
            for (int i = 0; i < 12; i++) e.send(f);
            e.h.hca.runUntilIdle();
            assertEquals(12, d.drain().size());
            assertEquals(List.of(5, 5, 2), d.lengths());
        }
    }

    @Test
    void stepModeAndThreadModeReceiveTheSameCompletionsWithCqeCompression() {
        List<CqeDecoder.Completion> step = compressedRun(ExecutionMode.STEP);
        List<CqeDecoder.Completion> thread = compressedRun(ExecutionMode.THREAD);
        assertEquals(40, step.size());
        for (int i = 0; i < 40; i++) assertEquals(i, step.get(i).wqeCounter());
        assertEquals(step, thread);
    }

    @Test
    void armedCqRaisesACompletionEventThroughTheUar() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            e.postRx(1);
            e.armEq();
            e.armTxCq();
            e.h.hca.runUntilIdle();
            long before = e.h.hca.interruptsRaised();
            e.send(TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[30]));
            e.h.hca.runUntilIdle();
            MemorySegment ev = e.eqe();
            assertNotNull(ev, "completion EQE");
            assertEquals(EqeType.COMP.value, Eqe.event_type(ev));
            assertEquals(e.txCqn, Eqe.cqn(ev));
            assertEquals(before + 1, e.h.hca.interruptsRaised());
        }
    }

    @Test
    void twoDevicesJoinedByAWireTappedIntoPcap(@TempDir Path dir) throws Exception {
        SoftHca.Options noCable = new SoftHca.Options().loopback(false);
        try (Eth a = new Eth(noCable, ExecutionMode.STEP); Eth b = new Eth(new SoftHca.Options().loopback(false), ExecutionMode.STEP)) {
            assertEquals(Nic.DOWN, Nic.operStatus(a.h), "no cable: PAOS oper_status down");
            Wire w = Wire.join(a.h.hca.port(), b.h.hca.port());
            Path pcap = dir.resolve("ab.pcap");
            w.tap(pcap);
            b.postRx(2);
            a.postRx(2);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 5353, 53, TestFrames.payload(30, 7));
            a.send(f);
            a.h.hca.runUntilIdle();
            b.h.hca.runUntilIdle();
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(a.txCqe()));
            assertNull(a.rxCqe(), "nothing comes back to the sender");
            MemorySegment r = b.rxCqe();
            assertNotNull(r, "the peer received it");
            assertEquals(f.length, Cqe64.byte_cnt(r));
            // drop and corrupt on the wire
            a.h.hca.faults().dropFrames(1);
            a.send(f);
            a.h.hca.runUntilIdle();
            b.h.hca.runUntilIdle();
            assertNull(b.rxCqe());
            a.h.hca.faults().corruptFrames(1, Wire.Corruption.PAYLOAD);
            a.send(f);
            a.h.hca.runUntilIdle();
            b.h.hca.runUntilIdle();
            MemorySegment bad = b.rxCqe();
            assertNotNull(bad);
            assertNotEquals(CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK, Cqe64.hds_ip_ext(bad) & (CqeHdsIpExt.L3_OK$MASK | CqeHdsIpExt.L4_OK$MASK), "the corrupted frame fails a checksum");
            w.untap();
            String out = Tools.run("tshark", "-r", pcap.toString(), "-T", "fields", "-e", "udp.dstport", "-e", "frame.len");
            if (out != null) assertEquals(List.of("53\t" + f.length, "53\t" + f.length, "53\t" + f.length), List.of(out.strip().split("\n")));
            // link down at A: B's port goes down too, and a port change event reaches B's EQ
            a.h.hca.faults().link(false);
            a.h.hca.runUntilIdle();
            b.h.hca.runUntilIdle();
            assertEquals(Nic.DOWN, Nic.operStatus(b.h), "the far end's PAOS oper_status");
            MemorySegment ev = b.eqe();
            while (ev != null && (Eqe.event_type(ev) != EqeType.PORT_CHANGE.value || Eqe.event_sub_type(ev) != io.prmkit.mlx5.PortChangeSubtype.DOWN.value)) {
                ev = b.eqe();
            }
            assertNotNull(ev, "port change at the far end");
            assertEquals(io.prmkit.mlx5.PortChangeSubtype.DOWN.value, Eqe.event_sub_type(ev));
        }
    }

    @Test
    void aCqFreedUnderTheDeviceIsAnAccessViolationNotADeadDevice() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            e.postRx(4);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[30]);
            e.send(f);
            e.h.hca.runUntilIdle();
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(e.txCqe()));
            e.txCq.close(); // a buggy driver frees the CQ's ring before DESTROY_CQ
            e.send(f);
            e.h.hca.runUntilIdle();
            assertNull(e.h.hca.error(), "the device did not die");
            assertFalse(e.h.hca.isFatal());
            MemorySegment ev = e.eqe();
            while (ev != null && Eqe.event_type(ev) != EqeType.CQ_ERROR.value) ev = e.eqe();
            assertNotNull(ev, "a CQ error event");
            assertEquals(e.txCqn, Eqe.cq_error_cqn(ev));
            assertEquals(io.prmkit.mlx5.CqErrorSyndrome.ACCESS_VIOLATION.value, Eqe.cq_error_syndrome(ev));
            assertNotNull(e.rxCqe(), "the frames still flow");
            assertNotNull(e.rxCqe());
        }
    }

    @Test
    void aFrameBufferFreedAfterUseIsAProtectionErrorNotAStaleRead() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            e.postRx(4);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[30]);
            e.send(f); // the device keeps the buffer's mapping from this send
            e.h.hca.runUntilIdle();
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(e.txCqe()));
            long faults = e.h.hca.iommu().faults();
            MemorySegment ring = e.sqRing.segment();
            long o = (e.pc & 63) * 64L;
            e.data.close(); // unmapped and freed; the next WQE still points into it
            WqeCtrlSeg.writer(ring, o).opcode(SendWqeOpcode.SEND).wqe_index(e.pc & 0xffff).qpn(e.sqn).ds(4).ce(CompletionMode.CQE_ALWAYS).write();
            WqeEthSeg.writer(ring, o + 16).inline_hdr_sz(18).write();
            MemorySegment.copy(f, 0, ring, ValueLayout.JAVA_BYTE, o + 16 + WqeEthSeg.inline_hdr_start$BYTE_OFFSET, 18);
            WqeDataSeg.writer(ring, o + 48).byte_count(f.length - 18).lkey(e.lkey).addr(e.data.busAddress() + 18).write();
            e.pc++;
            VarHandle.storeStoreFence();
            WqDoorbellRecord.send_counter$set(e.sqDb.segment(), e.pc & 0xffff);
            e.h.bar.write64(e.uar * 4096L + UarPage.bf_registers$BYTE_OFFSET, ring.get(BE64, o));
            e.h.hca.runUntilIdle();
            MemorySegment err = e.txCqe();
            assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(err));
            assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(err));
            assertEquals(1, ErrCqe.wqe_counter(err));
            assertNull(e.h.hca.error());
            assertTrue(e.h.hca.iommu().faults() >= faults);
        }
    }

    @Test
    void injectedWqeErrorThroughFaults() {
        try (Eth e = new Eth(new SoftHca.Options(), ExecutionMode.STEP)) {
            e.postRx(4);
            e.h.hca.faults().failWqe(e.sqn, 2, CqeErrorSyndrome.LOCAL_PROT_ERR);
            byte[] f = TestFrames.ipv4(Ethernet.PROTO_UDP, 1, 2, new byte[30]);
            e.send(f);
            e.send(f);
            e.h.hca.runUntilIdle();
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(e.txCqe()));
            MemorySegment err = e.txCqe();
            assertEquals(CqeOpcode.REQ_ERR.value, ErrCqe.opcode(err));
            assertEquals(1, ErrCqe.wqe_counter(err));
            assertEquals(CqeErrorSyndrome.LOCAL_PROT_ERR.value, ErrCqe.syndrome(err));
            // the SQ is in ERR: MODIFY_SQ RDY->RDY is refused, ERR->RST->RDY brings it back
            Objs.modifySq(e.h, e.sqn, SqState.ERR$VALUE, SqState.RST$VALUE).ok();
            Objs.modifySq(e.h, e.sqn, SqState.RST$VALUE, SqState.RDY$VALUE).ok();
            e.pc = 0;
            e.send(f);
            e.h.hca.runUntilIdle();
            assertEquals(CqeOpcode.REQ.value, Cqe64.opcode(e.txCqe()));
        }
    }
}
