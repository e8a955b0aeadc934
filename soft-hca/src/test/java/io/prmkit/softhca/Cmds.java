package io.prmkit.softhca;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.mlx5.AccessRegisterIn;
import io.prmkit.mlx5.AccessRegisterOpMod;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.ManagePagesIn;
import io.prmkit.mlx5.ManagePagesOpMod;
import io.prmkit.mlx5.ManagePagesOut;
import io.prmkit.mlx5.NopIn;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryPagesIn;
import io.prmkit.mlx5.QueryPagesOpMod;
import io.prmkit.mlx5.QueryPagesOut;
import io.prmkit.mlx5.RegisterHostEndianness;
import io.prmkit.mlx5.RegisterId;
import io.prmkit.mlx5.SetIssiIn;
import io.prmkit.mlx5.SetIssiOut;
import io.prmkit.platform.DmaRegion;
import io.prmkit.softhca.cmd.Syndrome;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** Test-side command builders (generated setters only) and status assertions. */
final class Cmds {
    private Cmds() {}

    /** An input of {@code size} bytes with opcode and op_mod in the generic header. */
    static MemorySegment header(CmdOpcode op, long size, int opMod) {
        MemorySegment in = TestHost.in(size);
        NopIn.opcode$set(in, op);
        NopIn.op_mod$set(in, opMod);
        return in;
    }

    static MemorySegment header(CmdOpcode op, long size) {
        return header(op, size, 0);
    }

    static void assertFails(TestHost.Result r, Syndrome s, CmdOpcode op) {
        assertEquals(0, r.delivery(), "delivery status");
        assertEquals(s.status.value, r.status(), () -> "status, syndrome " + Syndrome.describe(r.syndrome()));
        assertEquals(s.value((int) op.value), r.syndrome(), () -> "syndrome " + Syndrome.describe(r.syndrome()));
    }

    static int queryPages(TestHost h, QueryPagesOpMod mod) {
        MemorySegment in = header(CmdOpcode.QUERY_PAGES, QueryPagesIn.SIZE);
        QueryPagesIn.op_mod$set(in, mod);
        return QueryPagesOut.num_pages(h.exec(in, QueryPagesOut.SIZE).ok().out());
    }

    /** MANAGE_PAGES give of {@code n} fresh 4 KiB DMA pages (kept in {@code held}). */
    static TestHost.Result givePages(TestHost h, int n, List<DmaRegion> held) {
        MemorySegment in = header(CmdOpcode.MANAGE_PAGES, ManagePagesIn.SIZE + 8L * n);
        ManagePagesIn.op_mod$set(in, ManagePagesOpMod.ALLOCATION_SUCCESS);
        ManagePagesIn.input_num_entries$set(in, n);
        for (int i = 0; i < n; i++) {
            DmaRegion p = h.f.dma().allocate(4096, 4096);
            held.add(p);
            ManagePagesIn.pas$set(in, i, p.busAddress());
        }
        return h.exec(in, ManagePagesOut.SIZE);
    }

    /** MANAGE_PAGES take of up to {@code n} pages; returns the bus addresses given back. */
    static List<Long> takePages(TestHost h, int n) {
        MemorySegment in = header(CmdOpcode.MANAGE_PAGES, ManagePagesIn.SIZE);
        ManagePagesIn.op_mod$set(in, ManagePagesOpMod.HCA_RETURN_PAGES);
        ManagePagesIn.input_num_entries$set(in, n);
        MemorySegment out = h.exec(in, ManagePagesOut.SIZE + 8L * n).ok().out();
        List<Long> pages = new ArrayList<>();
        for (int i = 0; i < ManagePagesOut.output_num_entries(out); i++) pages.add(ManagePagesOut.pas$elem(out, i));
        return pages;
    }

    static MemorySegment queryCap(TestHost h, QueryHcaCapOpMod mod) {
        MemorySegment in = header(CmdOpcode.QUERY_HCA_CAP, QueryHcaCapIn.SIZE);
        QueryHcaCapIn.op_mod$set(in, mod);
        MemorySegment out = h.exec(in, QueryHcaCapOut.SIZE).ok().out();
        return out.asSlice(QueryHcaCapOut.capability$BYTE_OFFSET, 0x1000);
    }

    static TestHost.Result hostEndianness(TestHost h) {
        MemorySegment in = header(CmdOpcode.ACCESS_REG, AccessRegisterIn.SIZE + RegisterHostEndianness.SIZE);
        AccessRegisterIn.op_mod$set(in, AccessRegisterOpMod.WRITE);
        AccessRegisterIn.register_id$set(in, RegisterId.HOST_ENDIANNESS);
        return h.exec(in, AccessRegisterIn.SIZE + RegisterHostEndianness.SIZE);
    }

    /** ENABLE_HCA, SET_ISSI 1, boot pages, HOST_ENDIANNESS, init pages, INIT_HCA: the Linux order. */
    static List<DmaRegion> bringUp(TestHost h) {
        h.exec(header(CmdOpcode.ENABLE_HCA, io.prmkit.mlx5.EnableHcaIn.SIZE), io.prmkit.mlx5.EnableHcaOut.SIZE).ok();
        return bringUpRest(h);
    }

    /** {@link #bringUp} after ENABLE_HCA. */
    static List<DmaRegion> bringUpRest(TestHost h) {
        List<DmaRegion> pages = new ArrayList<>();
        MemorySegment issi = header(CmdOpcode.SET_ISSI, SetIssiIn.SIZE);
        SetIssiIn.current_issi$set(issi, 1);
        h.exec(issi, SetIssiOut.SIZE).ok();
        givePages(h, queryPages(h, QueryPagesOpMod.BOOT_PAGES), pages).ok();
        hostEndianness(h).ok();
        givePages(h, queryPages(h, QueryPagesOpMod.INIT_PAGES), pages).ok();
        h.exec(header(CmdOpcode.INIT_HCA, io.prmkit.mlx5.InitHcaIn.SIZE), io.prmkit.mlx5.InitHcaOut.SIZE).ok();
        return pages;
    }
}
