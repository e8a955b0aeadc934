package io.prmkit.softhca.vfio;

import io.prmkit.mlx5.AllocPdIn;
import io.prmkit.mlx5.AllocPdOut;
import io.prmkit.mlx5.CmdHcaCap;
import io.prmkit.mlx5.CmdOpcode;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryIssiIn;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryNicVportContextIn;
import io.prmkit.mlx5.QueryNicVportContextOut;
import io.prmkit.mlx5.QueryVportStateIn;
import io.prmkit.mlx5.QueryVportStateOut;
import io.prmkit.softhca.CapsProfile;
import io.prmkit.softhca.SoftHca;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Runs in a JVM of its own with the VFIO stand-in preloaded (RdmaCoreVfioTest starts it): serves a
 * soft HCA behind the stand-in, then drives it with rdma-core's own mlx5_vfio provider from the
 * system's libmlx5 (mlx5dv_get_vfio_device_list, ibv_open_device, DEVX general commands and object
 * creation, close). It asserts nothing: it prints what happened, one fact per line, for the test.
 * <ul>
 *   <li>{@code CMD <opcode> op_mod=<hex> status=<hex> syndrome=<hex>}: every command the device
 *       completed, in order (from its command trace);</li>
 *   <li>{@code STEP <name> ok ...} or {@code STEP <name> FAILED errno=<n> ...}: each libmlx5 call;</li>
 *   <li>{@code VFIO <call>}: the stand-in's trace of the VFIO calls; {@code DONE} at the end.</li>
 * </ul>
 */
public final class RdmaCoreVfioMain {
    private static PrintStream out;

    public static void main(String[] args) throws Throwable {
        out = new PrintStream(System.out, true);
        Path library = Path.of(args[0]);
        Path root = Path.of(args[1]);
        VfioStandIn.Function fn = VfioStandIn.Function.connectX4();
        // mlx5_vfio refuses a function without umem_uid_0 (it registers umems with uid 0); the real
        // ConnectX-4 whose capabilities the soft HCA reports has it clear, so it is set here.
        SoftHca.Options options = new SoftHca.Options().caps(CapsProfile.connectX4().withGeneral("umem_uid_0", 1))
                .trace(new CommandLines(out::println));
        try (VfioStandIn standIn = VfioStandIn.attach(library, root, fn, options, l -> out.println("VFIO " + l));
             Arena arena = Arena.ofShared()) {
            run(new RdmaCore(arena), arena, fn.pci());
            out.println("LIVE " + standIn.device().liveObjects());
            out.println("FAULTS " + standIn.device().iommu().faults() + " mappings " + standIn.device().iommu().mappings());
            out.println("ERROR " + standIn.device().error());
            if (standIn.device().error() != null) standIn.device().error().printStackTrace(out);
        }
        out.println("DONE");
        System.exit(0);
    }

    static void step(String name, boolean ok, RdmaCore rc, String detail) {
        out.println("STEP " + name + (ok ? " ok" : " FAILED errno=" + rc.errno()) + (detail.isEmpty() ? "" : " " + detail));
    }

    static void run(RdmaCore rc, Arena arena, String pci) throws Throwable {
        MemorySegment attr = arena.allocate(24, 8);
        attr.set(ValueLayout.ADDRESS, 0, arena.allocateFrom(pci));
        MemorySegment list = (MemorySegment) rc.getVfioDeviceList.invokeExact(rc.state(), attr);
        step("get_vfio_device_list", !list.equals(MemorySegment.NULL), rc, "");
        if (list.equals(MemorySegment.NULL)) return;
        MemorySegment dev = list.reinterpret(16).get(ValueLayout.ADDRESS, 0);
        MemorySegment ctx = (MemorySegment) rc.openDevice.invokeExact(rc.state(), dev);
        step("open_device", !ctx.equals(MemorySegment.NULL), rc, "");
        if (ctx.equals(MemorySegment.NULL)) {
            rc.freeDeviceList.invokeExact(rc.state(), list);
            return;
        }
        MemorySegment eventsFd = MemorySegment.NULL;
        int fd = (int) rc.eventsFd.invokeExact(rc.state(), ctx);
        step("vfio_get_events_fd", fd >= 0, rc, "fd=" + fd);

        // DEVX general commands
        MemorySegment in = arena.allocate(4096, 8);
        MemorySegment o = arena.allocate(8192, 8);
        for (QueryHcaCapOpMod mod : new QueryHcaCapOpMod[] {QueryHcaCapOpMod.GENERAL_DEVICE_CUR, QueryHcaCapOpMod.GENERAL_DEVICE_MAX,
                QueryHcaCapOpMod.ETHERNET_OFFLOADS_CUR}) {
            in.fill((byte) 0);
            o.fill((byte) 0);
            QueryHcaCapIn.opcode$set(in, CmdOpcode.QUERY_HCA_CAP);
            QueryHcaCapIn.op_mod$set(in, mod);
            int r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryHcaCapIn.SIZE, o, QueryHcaCapOut.SIZE);
            String detail = "op_mod=" + mod + " status=" + QueryHcaCapOut.status(o);
            if (mod == QueryHcaCapOpMod.GENERAL_DEVICE_CUR) {
                MemorySegment cap = QueryHcaCapOut.capability(o);
                detail += " port_type=" + CmdHcaCap.port_type(cap) + " log_max_qp=" + CmdHcaCap.log_max_qp(cap) + " umem_uid_0="
                        + (CmdHcaCap.umem_uid_0(cap) ? 1 : 0);
            }
            step("devx_general_cmd QUERY_HCA_CAP", r == 0, rc, detail);
        }
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryVportStateIn.opcode$set(in, CmdOpcode.QUERY_VPORT_STATE);
        int r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryVportStateIn.SIZE, o, QueryVportStateOut.SIZE);
        step("devx_general_cmd QUERY_VPORT_STATE", r == 0, rc, "state=" + QueryVportStateOut.state(o) + " admin_state=" + QueryVportStateOut.admin_state(o));
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryIssiIn.opcode$set(in, CmdOpcode.QUERY_ISSI);
        r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryIssiIn.SIZE, o, QueryIssiOut.SIZE);
        step("devx_general_cmd QUERY_ISSI", r == 0, rc, "current_issi=" + QueryIssiOut.current_issi(o));
        in.fill((byte) 0);
        o.fill((byte) 0);
        QueryNicVportContextIn.opcode$set(in, CmdOpcode.QUERY_NIC_VPORT_CONTEXT);
        r = (int) rc.generalCmd.invokeExact(rc.state(), ctx, in, QueryNicVportContextIn.SIZE, o, QueryNicVportContextOut.SIZE);
        step("devx_general_cmd QUERY_NIC_VPORT_CONTEXT", r == 0, rc, "status=" + QueryNicVportContextOut.status(o));

        // DEVX objects
        in.fill((byte) 0);
        o.fill((byte) 0);
        AllocPdIn.opcode$set(in, CmdOpcode.ALLOC_PD);
        MemorySegment pd = (MemorySegment) rc.objCreate.invokeExact(rc.state(), ctx, in, AllocPdIn.SIZE, o, AllocPdOut.SIZE);
        step("devx_obj_create ALLOC_PD", !pd.equals(MemorySegment.NULL), rc, "pd=" + AllocPdOut.pd(o));

        MemorySegment uar = (MemorySegment) rc.allocUar.invokeExact(rc.state(), ctx, 1);
        step("devx_alloc_uar", !uar.equals(MemorySegment.NULL), rc,
                uar.equals(MemorySegment.NULL) ? "" : "page_id=" + uar.reinterpret(24).get(ValueLayout.JAVA_INT, 16));
        MemorySegment eqn = arena.allocate(4, 4);
        r = (int) rc.queryEqn.invokeExact(rc.state(), ctx, 0, eqn);
        step("devx_query_eqn", r == 0, rc, "eqn=" + eqn.get(ValueLayout.JAVA_INT, 0));

        if (!pd.equals(MemorySegment.NULL)) {
            r = (int) rc.objDestroy.invokeExact(rc.state(), pd);
            step("devx_obj_destroy PD", r == 0, rc, "");
        }
        if (!uar.equals(MemorySegment.NULL)) rc.freeUar.invokeExact(rc.state(), uar);
        r = (int) rc.processEvents.invokeExact(rc.state(), ctx);
        step("vfio_process_events", r == 0, rc, "");
        r = (int) rc.closeDevice.invokeExact(rc.state(), ctx);
        step("close_device", r == 0, rc, "");
        rc.freeDeviceList.invokeExact(rc.state(), list);
    }

    /** The device's command trace as one CMD line per completed command. */
    static final class CommandLines implements Consumer<String> {
        private final Consumer<String> sink;
        private final java.util.Map<Integer, String> pending = new java.util.HashMap<>();

        CommandLines(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public synchronized void accept(String block) {
            int at = block.indexOf("dump command ");
            if (at < 0) {
                sink.accept("TRACE " + block.strip());
                return;
            }
            int slot = Integer.parseInt(block.substring(4, block.indexOf(']')));
            String name = block.substring(at + "dump command ".length(), block.indexOf('(', at));
            String[] first = firstHexLine(block, slot);
            if (block.contains(") INPUT")) {
                int dw1 = first == null ? 0 : (int) Long.parseLong(first[1], 16);
                pending.put(slot, name + " op_mod=0x" + Integer.toHexString(dw1 & 0xffff));
            } else {
                long dw0 = first == null ? 0 : Long.parseLong(first[0], 16);
                String synd = first == null ? "0" : first[1];
                sink.accept("CMD " + pending.getOrDefault(slot, name) + " status=0x" + Long.toHexString(dw0 >>> 24) + " syndrome=0x" + synd);
            }
        }

        private static String[] firstHexLine(String block, int slot) {
            String key = "cmd[" + slot + "]: 000:";
            int i = block.indexOf(key);
            if (i < 0) return null;
            String[] w = block.substring(i + key.length()).strip().split("\\s+");
            return new String[] {w[0], w[1]};
        }
    }
}
