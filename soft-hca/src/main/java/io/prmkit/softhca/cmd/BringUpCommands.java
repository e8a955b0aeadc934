package io.prmkit.softhca.cmd;

import io.prmkit.mlx5.DisableHcaIn;
import io.prmkit.mlx5.EnableHcaIn;
import io.prmkit.mlx5.HcaCapType;
import io.prmkit.mlx5.ManagePagesIn;
import io.prmkit.mlx5.ManagePagesOut;
import io.prmkit.mlx5.PrmCommands;
import io.prmkit.layout.PrmLayout;
import io.prmkit.mlx5.QueryAdapterOut;
import io.prmkit.mlx5.QueryHcaCapIn;
import io.prmkit.mlx5.QueryHcaCapOpMod;
import io.prmkit.mlx5.QueryHcaCapOut;
import io.prmkit.mlx5.QueryIssiOut;
import io.prmkit.mlx5.QueryPagesIn;
import io.prmkit.mlx5.QueryPagesOut;
import io.prmkit.mlx5.SetDriverVersionIn;
import io.prmkit.mlx5.SetHcaCapIn;
import io.prmkit.mlx5.SetHcaCapOpMod;
import io.prmkit.mlx5.SetIssiIn;
import io.prmkit.mlx5.TeardownHcaIn;
import io.prmkit.mlx5.TeardownHcaOut;
import io.prmkit.mlx5.TeardownHcaProfile;
import io.prmkit.mlx5.TeardownHcaState;
import io.prmkit.softhca.cmd.CommandSpec.Phase;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * PRM chapter "HCA initialization and teardown" and the commands of the bring-up sequence:
 * ENABLE/DISABLE_HCA, QUERY/SET_ISSI, QUERY_PAGES, MANAGE_PAGES, QUERY/SET_HCA_CAP, INIT_HCA,
 * TEARDOWN_HCA, SET_DRIVER_VERSION, QUERY_ADAPTER and NOP.
 */
final class BringUpCommands {
    /**
     * ISSI values the device supports (bit n = ISSI n): what the ConnectX-4 reported in
     * {@code supported_issi_dw0}, 0x2, ISSI 1 only. Before SET_ISSI the function runs at ISSI 0
     * (current_issi 0), which SET_ISSI cannot choose.
     */
    static final int SUPPORTED_ISSI = 0b10;

    /** General capability fields SET_HCA_CAP may change (what Linux sets; the rest is fixed by firmware). */
    static final Set<String> SETTABLE_GENERAL = Set.of("pkey_table_size", "log_max_qp", "cmdif_checksum", "uar_4k", "log_uar_page_sz",
            "cache_line_128byte", "dct", "roce", "atomic", "num_vhca_ports", "sw_owner_id", "release_all_pages", "disable_local_lb_mc",
            "disable_local_lb_uc", "mkey_by_name", "abs_native_port_num");
    /** Atomic capability fields SET_HCA_CAP may change. */
    static final Set<String> SETTABLE_ATOMIC = Set.of("atomic_req_8B_endianness_mode");

    private final HcaState hca;

    private BringUpCommands(HcaState hca) {
        this.hca = hca;
    }

    static void register(Map<Integer, CommandSpec> specs, HcaState hca) {
        BringUpCommands b = new BringUpCommands(hca);
        put(specs, PrmCommands.ENABLE_HCA, Phase.ANY, b::enableHca);
        put(specs, PrmCommands.DISABLE_HCA, Phase.ENABLED, b::disableHca);
        put(specs, PrmCommands.QUERY_ISSI, Phase.ENABLED, b::queryIssi);
        put(specs, PrmCommands.SET_ISSI, Phase.ENABLED, b::setIssi);
        put(specs, PrmCommands.QUERY_PAGES, Phase.ENABLED, b::queryPages);
        put(specs, PrmCommands.MANAGE_PAGES, Phase.ENABLED, b::managePages);
        put(specs, PrmCommands.QUERY_HCA_CAP, Phase.ENABLED, b::queryHcaCap);
        put(specs, PrmCommands.SET_HCA_CAP, Phase.ENABLED, b::setHcaCap);
        put(specs, PrmCommands.INIT_HCA, Phase.ENABLED, b::initHca);
        put(specs, PrmCommands.TEARDOWN_HCA, Phase.INITIALIZED, b::teardownHca);
        put(specs, PrmCommands.SET_DRIVER_VERSION, Phase.INITIALIZED, b::setDriverVersion);
        put(specs, PrmCommands.NOP, Phase.ANY, c -> {});
        put(specs, PrmCommands.QUERY_ADAPTER, Phase.ENABLED, b::queryAdapter);
    }

    /** Registers the handler of a command the spec declares (its structures, sizes and lengths come from the declaration). */
    static void put(Map<Integer, CommandSpec> specs, PrmLayout.Command command, Phase phase, CommandSpec.Firmware h) {
        specs.put(command.opcode(), new CommandSpec(command, phase, h));
    }

    private void enableHca(Command c) {
        if (EnableHcaIn.function_id(c.in) != 0 || EnableHcaIn.embedded_cpu_function(c.in)) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + EnableHcaIn.function_id(c.in));
        }
        if (hca.enabled) throw c.fail(Syndrome.ALREADY_ENABLED, "ENABLE_HCA twice");
        hca.enabled = true;
        hca.tornDown = false;
        hca.initFailed = false;
    }

    private void disableHca(Command c) {
        if (DisableHcaIn.function_id(c.in) != 0 || DisableHcaIn.embedded_cpu_function(c.in)) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + DisableHcaIn.function_id(c.in));
        }
        if (hca.initialized) throw c.fail(Syndrome.ALREADY_INITIALIZED, "DISABLE_HCA before TEARDOWN_HCA");
        if (!hca.pages.isEmpty()) throw c.fail(Syndrome.PAGES_IN_USE, hca.pages.size() + " pages still given");
        hca.enabled = false;
        hca.issi = 0;
    }

    private void queryIssi(Command c) {
        QueryIssiOut.Device.current_issi$set(c.out, hca.issi);
        QueryIssiOut.Device.supported_issi_dw0$set(c.out, SUPPORTED_ISSI);
    }

    private void setIssi(Command c) {
        if (hca.initialized) throw c.fail(Syndrome.ALREADY_INITIALIZED, "SET_ISSI after INIT_HCA");
        int issi = SetIssiIn.current_issi(c.in);
        if (issi >= Integer.SIZE || (SUPPORTED_ISSI >>> issi & 1) == 0) throw c.fail(Syndrome.BAD_ISSI, "ISSI " + issi);
        hca.issi = issi;
    }

    private void queryPages(Command c) {
        if (QueryPagesIn.function_id(c.in) != 0 || QueryPagesIn.embedded_cpu_function(c.in)) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + QueryPagesIn.function_id(c.in));
        }
        var mod = QueryPagesIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        int held = hca.pages.size();
        int pages = switch (mod) {
            case BOOT_PAGES -> Math.max(0, hca.bootPages - held);
            case INIT_PAGES -> Math.max(0, hca.bootPages + hca.initPages - held);
            // Signed: negative means the device has pages to give back.
            case REGULAR_PAGES -> hca.bootPages + hca.initPages + hca.regularPages - held;
        };
        QueryPagesOut.Device.function_id$set(c.out, 0);
        QueryPagesOut.Device.num_pages$set(c.out, pages);
    }

    private void managePages(Command c) {
        if (ManagePagesIn.function_id(c.in) != 0 || ManagePagesIn.embedded_cpu_function(c.in)) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + ManagePagesIn.function_id(c.in));
        }
        var mod = ManagePagesIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        long n = Integer.toUnsignedLong(ManagePagesIn.input_num_entries(c.in));
        switch (mod) {
            case ALLOCATION_FAIL -> {
                // The driver could not give what was asked; nothing changes, the request stands.
            }
            case ALLOCATION_SUCCESS -> {
                long room = (c.inLength() - ManagePagesIn.pas$BYTE_OFFSET) / (ManagePagesIn.pas$ELEMENT_BITS / 8);
                if (n > room) throw c.fail(Syndrome.PAGE_COUNT, n + " entries in " + c.inLength() + " input bytes");
                long[] given = new long[(int) n];
                java.util.Set<Long> fresh = new java.util.HashSet<>();
                for (int i = 0; i < n; i++) {
                    long pa = ManagePagesIn.pas$elem(c.in, i);
                    if (pa % HcaState.PAGE_SIZE != 0 || !hca.iommu.isMapped(pa, HcaState.PAGE_SIZE)) {
                        throw c.fail(Syndrome.BAD_PAGE_ADDRESS, "page 0x" + Long.toHexString(pa));
                    }
                    if (hca.pageSet.contains(pa) || !fresh.add(pa)) throw c.fail(Syndrome.DUPLICATE_PAGE, "page 0x" + Long.toHexString(pa));
                    given[i] = pa;
                }
                for (long pa : given) {
                    if (hca.pageSet.add(pa)) hca.pages.push(pa);
                }
            }
            case HCA_RETURN_PAGES -> {
                long room = (c.outLength() - ManagePagesOut.pas$BYTE_OFFSET) / (ManagePagesOut.pas$ELEMENT_BITS / 8);
                long spare = Math.max(0, hca.pages.size() - hca.requiredPages());
                int count = (int) Math.min(Math.min(n, spare), Math.max(0, room));
                for (int i = 0; i < count; i++) {
                    long pa = hca.pages.pop();
                    hca.pageSet.remove(pa);
                    ManagePagesOut.Device.pas$set(c.out, i, pa);
                }
                ManagePagesOut.Device.output_num_entries$set(c.out, count);
            }
        }
    }

    private void queryHcaCap(Command c) {
        if (QueryHcaCapIn.other_function(c.in) || QueryHcaCapIn.function_id(c.in) != 0) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + QueryHcaCapIn.function_id(c.in));
        }
        QueryHcaCapOpMod mod = QueryHcaCapIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        int type = capType(mod);
        boolean current = mod.name().endsWith("_CUR");
        MemorySegment page = (current ? hca.capsCurrent : hca.capsMax).get(type);
        if (page == null) throw c.fail(Syndrome.BAD_CAP_TYPE, mod.name());
        MemorySegment.copy(page, 0, c.out, QueryHcaCapOut.capability$BYTE_OFFSET, page.byteSize());
    }

    /** The cap type an op_mod of QUERY_HCA_CAP names (its constants are TYPE_MAX / TYPE_CUR). */
    private static int capType(QueryHcaCapOpMod mod) {
        return switch (mod) {
            case GENERAL_DEVICE_MAX, GENERAL_DEVICE_CUR -> HcaCapType.GENERAL$VALUE;
            case ETHERNET_OFFLOADS_MAX, ETHERNET_OFFLOADS_CUR -> HcaCapType.ETHERNET_OFFLOADS$VALUE;
            case ODP_MAX, ODP_CUR -> HcaCapType.ODP$VALUE;
            case ATOMIC_MAX, ATOMIC_CUR -> HcaCapType.ATOMIC$VALUE;
            case ROCE_MAX, ROCE_CUR -> HcaCapType.ROCE$VALUE;
            case FLOW_TABLE_MAX, FLOW_TABLE_CUR -> HcaCapType.FLOW_TABLE$VALUE;
            case ESWITCH_FLOW_TABLE_MAX, ESWITCH_FLOW_TABLE_CUR -> HcaCapType.ESWITCH_FLOW_TABLE$VALUE;
            case ESWITCH_MAX, ESWITCH_CUR -> HcaCapType.ESWITCH$VALUE;
            case QOS_MAX, QOS_CUR -> HcaCapType.QOS$VALUE;
            case GENERAL_2_MAX, GENERAL_2_CUR -> HcaCapType.GENERAL_2$VALUE;
        };
    }

    private void setHcaCap(Command c) {
        if (hca.initialized) throw c.fail(Syndrome.ALREADY_INITIALIZED, "SET_HCA_CAP after INIT_HCA");
        if (SetHcaCapIn.other_function(c.in) || SetHcaCapIn.function_id(c.in) != 0) {
            throw c.fail(Syndrome.OTHER_FUNCTION, "function_id " + SetHcaCapIn.function_id(c.in));
        }
        SetHcaCapOpMod mod = SetHcaCapIn.op_mod$enum(c.in);
        if (mod == null) throw c.fail(Syndrome.BAD_OP_MOD, "op_mod 0x" + Integer.toHexString(c.opMod));
        int type;
        Set<String> settable;
        switch (mod) {
            case GENERAL_DEVICE -> {
                type = 0;
                settable = SETTABLE_GENERAL;
            }
            case ATOMIC -> {
                type = 3;
                settable = SETTABLE_ATOMIC;
            }
            default -> throw c.fail(Syndrome.BAD_CAP_TYPE, mod.name() + " is not settable");
        }
        PrmLayout.Struct layout = CapTypes.layoutOf(type);
        MemorySegment cur = hca.capsCurrent.get(type);
        MemorySegment max = hca.capsMax.get(type);
        long base = SetHcaCapIn.capability$BYTE_OFFSET;
        for (PrmLayout.Field f : layout.fields()) {
            if (f.reserved() || f.kind() != PrmLayout.Kind.BITS || f.variant().isPresent()) continue;
            long v = layout.get(c.in, base, f);
            if (v == layout.get(cur, 0, f)) continue;
            if (!settable.contains(f.name())) throw c.fail(Syndrome.CAP_NOT_SETTABLE, f.name() + " = 0x" + Long.toHexString(v));
            if (Long.compareUnsigned(v, layout.get(max, 0, f)) > 0) {
                throw c.fail(Syndrome.CAP_ABOVE_MAX, f.name() + " = 0x" + Long.toHexString(v) + " > max");
            }
        }
        for (PrmLayout.Field f : layout.fields()) {
            if (f.reserved() || f.kind() != PrmLayout.Kind.BITS || f.variant().isPresent() || !settable.contains(f.name())) continue;
            layout.set(cur, 0, f, layout.get(c.in, base, f));
        }
    }

    private void initHca(Command c) {
        if (hca.initialized) throw c.fail(Syndrome.ALREADY_INITIALIZED, "INIT_HCA twice");
        int need = hca.bootPages + hca.initPages;
        if (hca.pages.size() < need) throw c.fail(Syndrome.MISSING_PAGES, hca.pages.size() + " of " + need + " pages");
        hca.initialized = true;
        hca.tornDown = false;
        hca.initFailed = false;
    }

    private void teardownHca(Command c) {
        TeardownHcaProfile p = TeardownHcaIn.profile$enum(c.in);
        if (p == null) throw c.fail(Syndrome.BAD_TEARDOWN_PROFILE, "profile " + TeardownHcaIn.profile(c.in));
        hca.initialized = false;
        hca.tornDown = true;
        hca.forgetObjects();
        TeardownHcaOut.Device.state$set(c.out, TeardownHcaState.SUCCESS);
    }

    /** The caps profile's adapter block: vendor ids, vendor-specific data, the board id (PSID). */
    private void queryAdapter(Command c) {
        MemorySegment.copy(hca.adapter, 0, c.out, QueryAdapterOut.query_adapter_struct$BYTE_OFFSET, hca.adapter.byteSize());
    }

    private void setDriverVersion(Command c) {
        byte[] text = new byte[SetDriverVersionIn.driver_version$LENGTH];
        SetDriverVersionIn.driver_version$copyTo(c.in, text);
        int len = 0;
        while (len < text.length && text[len] != 0) len++;
        hca.driverVersion = new String(text, 0, len, StandardCharsets.US_ASCII);
    }
}
