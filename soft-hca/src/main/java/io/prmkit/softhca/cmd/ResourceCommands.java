package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.AllocQCounterOut;
import io.prmkit.mlx5.AllocTransportDomainOut;
import io.prmkit.mlx5.AllocUarOut;
import io.prmkit.mlx5.CreateMkeyIn;
import io.prmkit.mlx5.CreateMkeyOut;
import io.prmkit.mlx5.DeallocPdIn;
import io.prmkit.mlx5.DeallocQCounterIn;
import io.prmkit.mlx5.DeallocTransportDomainIn;
import io.prmkit.mlx5.DeallocUarIn;
import io.prmkit.mlx5.DestroyMkeyIn;
import io.prmkit.mlx5.Mkc;
import io.prmkit.mlx5.MkcAccessMode;
import io.prmkit.mlx5.QueryMkeyIn;
import io.prmkit.mlx5.QueryMkeyOut;
import io.prmkit.mlx5.QueryQCounterIn;
import io.prmkit.mlx5.QueryQCounterOut;
import io.prmkit.mlx5.QuerySpecialContextsOut;
import io.prmkit.mlx5.WqeUmrKlmSeg;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import io.prmkit.softhca.device.DeviceObjects.Kind;
import io.prmkit.softhca.device.Resources;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PRM chapters "Resource allocation" and "Memory regions": UAR, PD, transport domain and Q counter
 * allocation, QUERY_SPECIAL_CONTEXTS, and memory keys (PA, MTT and KLM access modes; a {@code umr_en}
 * key may be created free, to be filled by a UMR WQE).
 */
final class ResourceCommands {
    private final HcaState hca;

    private ResourceCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        ResourceCommands r = new ResourceCommands(hca);
        BringUpCommands.put(specs, PrmCommands.ALLOC_UAR, Phase.INITIALIZED, r::allocUar);
        BringUpCommands.put(specs, PrmCommands.DEALLOC_UAR, Phase.INITIALIZED, r::deallocUar);
        BringUpCommands.put(specs, PrmCommands.ALLOC_PD, Phase.INITIALIZED, r::allocPd);
        BringUpCommands.put(specs, PrmCommands.DEALLOC_PD, Phase.INITIALIZED, r::deallocPd);
        BringUpCommands.put(specs, PrmCommands.ALLOC_TRANSPORT_DOMAIN, Phase.INITIALIZED, r::allocTd);
        BringUpCommands.put(specs, PrmCommands.DEALLOC_TRANSPORT_DOMAIN, Phase.INITIALIZED, r::deallocTd);
        BringUpCommands.put(specs, PrmCommands.ALLOC_Q_COUNTER, Phase.INITIALIZED, r::allocQCounter);
        BringUpCommands.put(specs, PrmCommands.DEALLOC_Q_COUNTER, Phase.INITIALIZED,
                r::deallocQCounter);
        BringUpCommands.put(specs, PrmCommands.QUERY_Q_COUNTER, Phase.INITIALIZED, r::queryQCounter);
        BringUpCommands.put(specs, PrmCommands.QUERY_SPECIAL_CONTEXTS, Phase.INITIALIZED, r::querySpecialContexts);
        BringUpCommands.put(specs, PrmCommands.CREATE_MKEY, Phase.INITIALIZED, r::createMkey);
        BringUpCommands.put(specs, PrmCommands.DESTROY_MKEY, Phase.INITIALIZED, r::destroyMkey);
        BringUpCommands.put(specs, PrmCommands.QUERY_MKEY, Phase.INITIALIZED, r::queryMkey);
    }

    private void allocUar(Command c) {
        for (int i = 0; i < hca.uarCount; i++) {
            int uar = hca.firstUar + i;
            if (hca.uars.add(uar)) {
                AllocUarOut.Device.uar$set(c.out, uar);
                return;
            }
        }
        throw c.fail(Syndrome.OUT_OF_NUMBERS, hca.uarCount + " UAR pages in BAR 0");
    }

    private void deallocUar(Command c) {
        if (!hca.uars.remove(DeallocUarIn.uar(c.in))) throw c.fail(Syndrome.NO_SUCH_OBJECT, "UAR " + DeallocUarIn.uar(c.in));
    }

    private void allocPd(Command c) {
        Support.checkCount(c, hca, hca.objects.count(Kind.PD), "log_max_pd");
        int pd = hca.nextNumber("pd", 1);
        hca.objects.addPd(pd);
        DevxCommands.own(hca, c, Kind.PD, pd);
        AllocPdOut.Device.pd$set(c.out, pd);
    }

    private void deallocPd(Command c) {
        int pd = DeallocPdIn.pd(c.in);
        if (!hca.objects.has(Kind.PD, pd)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "PD " + pd);
        DevxCommands.checkOwner(hca, c, Kind.PD, pd);
        String user = hca.objects.usedBy(Kind.PD, pd);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "PD " + pd + " " + user);
        hca.objects.destroy(Kind.PD, pd);
    }

    private void allocTd(Command c) {
        Support.checkCount(c, hca, hca.objects.count(Kind.TRANSPORT_DOMAIN), "log_max_transport_domain");
        int td = hca.nextNumber("td", 1);
        hca.objects.addTransportDomain(td);
        DevxCommands.own(hca, c, Kind.TRANSPORT_DOMAIN, td);
        AllocTransportDomainOut.Device.transport_domain$set(c.out, td);
    }

    private void deallocTd(Command c) {
        int td = DeallocTransportDomainIn.transport_domain(c.in);
        if (!hca.objects.has(Kind.TRANSPORT_DOMAIN, td)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "transport domain " + td);
        DevxCommands.checkOwner(hca, c, Kind.TRANSPORT_DOMAIN, td);
        String user = hca.objects.usedBy(Kind.TRANSPORT_DOMAIN, td);
        if (user != null) throw c.fail(Syndrome.OBJECT_IN_USE, "transport domain " + td + " " + user);
        hca.objects.destroy(Kind.TRANSPORT_DOMAIN, td);
    }

    private void allocQCounter(Command c) {
        // max_qp_cnt: how many Q counter sets the device has (CX4: 255); ids start at 1.
        long max = Support.cap(hca, "max_qp_cnt");
        for (int id = 1; id <= max; id++) {
            if (!hca.objects.has(Kind.Q_COUNTER, id)) {
                hca.objects.add(new Resources.QCounter(id));
                DevxCommands.own(hca, c, Kind.Q_COUNTER, id);
                AllocQCounterOut.Device.counter_set_id$set(c.out, id);
                return;
            }
        }
        throw c.fail(Syndrome.OUT_OF_NUMBERS, "max_qp_cnt " + max);
    }

    private void deallocQCounter(Command c) {
        int id = DeallocQCounterIn.counter_set_id(c.in);
        if (!hca.objects.has(Kind.Q_COUNTER, id)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "Q counter " + id);
        DevxCommands.checkOwner(hca, c, Kind.Q_COUNTER, id);
        hca.objects.destroy(Kind.Q_COUNTER, id);
    }

    private void queryQCounter(Command c) {
        int id = QueryQCounterIn.counter_set_id(c.in);
        Resources.QCounter q = hca.objects.qCounter(id);
        if (q == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "Q counter " + id);
        DevxCommands.checkOwner(hca, c, Kind.Q_COUNTER, id);
        QueryQCounterOut.Device.out_of_buffer$set(c.out, (int) q.outOfBuffer());
        // rx_write_requests stays 0: RDMA writes are not modelled
        if (QueryQCounterIn.clear_(c.in)) q.clear();
    }

    private void querySpecialContexts(Command c) {
        QuerySpecialContextsOut.Device.resd_lkey$set(c.out, hca.objects.reservedLkey);
    }

    private void createMkey(Command c) {
        MemorySegment mkc = Support.copy(c.in, CreateMkeyIn.memory_key_mkey_entry$BYTE_OFFSET, Mkc.SIZE);
        Support.checkCount(c, hca, hca.objects.count(Kind.MKEY), "log_max_mkey");
        if (!hca.objects.has(Kind.PD, Mkc.pd(mkc))) throw c.fail(Syndrome.BAD_REFERENCE, "PD " + Mkc.pd(mkc));
        int mode = Mkc.access_mode(mkc);
        long octwords = Integer.toUnsignedLong(CreateMkeyIn.translations_octword_actual_size(c.in));
        // a umem translates the key itself: DPDK and UCX give the octword count but no entries
        long tableBytes = CreateMkeyIn.mkey_umem_valid(c.in) ? 0 : octwords * 16;
        if (c.inLength() < CreateMkeyIn.klm_pas_mtt$BYTE_OFFSET + tableBytes) {
            throw c.fail(Syndrome.INPUT_TOO_SHORT, octwords + " translation octwords");
        }
        if (octwords > Integer.toUnsignedLong(Mkc.translations_octword_size(mkc))) {
            throw c.fail(Syndrome.BAD_FIELD, "translations_octword_actual_size above translations_octword_size");
        }
        MemorySegment table = Support.copy(c.in, CreateMkeyIn.klm_pas_mtt$BYTE_OFFSET, tableBytes);
        Resources.Umem umem = null;
        if (CreateMkeyIn.mkey_umem_valid(c.in)) {
            if (mode != MkcAccessMode.MTT.value) throw c.fail(Syndrome.BAD_FIELD, "mkey_umem_valid with access mode " + mode + " (MTT only)");
            umem = DevxCommands.translation(c, hca, CreateMkeyIn.mkey_umem_id(c.in), CreateMkeyIn.mkey_umem_offset(c.in),
                    Mkc.length64(mkc) ? -1 : Mkc.len(mkc));
        } else if (mode == MkcAccessMode.PA.value) {
            if (octwords != 0) throw c.fail(Syndrome.BAD_FIELD, "PA mkey with a translation table");
        } else if (mode == MkcAccessMode.MTT.value) {
            long page = 1L << Mkc.log_page_size(mkc);
            if (Mkc.log_page_size(mkc) < 12) throw c.fail(Syndrome.BAD_FIELD, "MTT page size below 4 KiB");
            for (long i = 0; i < tableBytes / 8; i++) {
                long pa = table.get(Support.BE_LONG, i * 8);
                if (pa % page != 0) throw c.fail(Syndrome.BAD_FIELD, "MTT entry " + i + " not page aligned");
            }
        } else if (mode == MkcAccessMode.KLMS.value) {
            for (long i = 0; i < tableBytes / WqeUmrKlmSeg.SIZE; i++) {
                int key = WqeUmrKlmSeg.mkey(table, i * WqeUmrKlmSeg.SIZE);
                if (hca.objects.mkey(key) == null) throw c.fail(Syndrome.BAD_REFERENCE, "KLM " + i + " names mkey 0x" + Integer.toHexString(key));
            }
        } else {
            throw c.fail(Syndrome.BAD_FIELD, "access mode " + mode + " not modelled (PA, MTT, KLM)");
        }
        if (Mkc.free(mkc) && !Mkc.umr_en(mkc)) throw c.fail(Syndrome.BAD_FIELD, "a free mkey must be umr_en");
        // Index 0 is never handed out: the reserved lkey lives there (DeviceObjects.RESERVED_LKEY).
        int index = hca.nextNumber("mkey", 1, (1 << CreateMkeyOut.mkey_index$BIT_WIDTH) - 1, n -> hca.objects.has(Kind.MKEY, n));
        if (index < 0) throw c.fail(Syndrome.OUT_OF_NUMBERS, "every mkey index is in use");
        int key = index << Mkc.mkey_7_0$BIT_WIDTH | Mkc.mkey_7_0(mkc);
        Resources.Mkey mkey = new Resources.Mkey(key, mkc, table, umem, umem == null ? 0 : CreateMkeyIn.mkey_umem_offset(c.in));
        hca.objects.add(mkey);
        DevxCommands.own(hca, c, Kind.MKEY, index);
        CreateMkeyOut.Device.mkey_index$set(c.out, index);
    }

    /** QUERY_MKEY: the context as created (or last rewritten by UMR) and the first 32 bytes of its translation table. */
    private void queryMkey(Command c) {
        Resources.Mkey m = hca.objects.mkeyAt(QueryMkeyIn.mkey_index(c.in));
        if (m == null) throw c.fail(Syndrome.NO_SUCH_OBJECT, "mkey index 0x" + Integer.toHexString(QueryMkeyIn.mkey_index(c.in)));
        DevxCommands.checkOwner(hca, c, Kind.MKEY, QueryMkeyIn.mkey_index(c.in));
        MemorySegment.copy(m.mkc, 0, c.out, QueryMkeyOut.memory_key_mkey_entry$BYTE_OFFSET, Mkc.SIZE);
        long table = QueryMkeyOut.bsf0_klm0_pas_mtt0_1$BYTE_OFFSET;
        long room = QueryMkeyOut.bsf0_klm0_pas_mtt0_1$LENGTH + QueryMkeyOut.bsf1_klm1_pas_mtt2_3$LENGTH;
        MemorySegment.copy(m.translation(), 0, c.out, table, Math.min(room, m.translation().byteSize()));
    }

    private void destroyMkey(Command c) {
        int index = DestroyMkeyIn.mkey_index(c.in);
        if (!hca.objects.has(Kind.MKEY, index)) throw c.fail(Syndrome.NO_SUCH_OBJECT, "mkey index 0x" + Integer.toHexString(index));
        DevxCommands.checkOwner(hca, c, Kind.MKEY, index);
        hca.objects.destroy(Kind.MKEY, index);
    }
}
