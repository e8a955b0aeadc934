package io.prmkit.softhca.cmd;

import io.prmkit.softhca.device.DeviceObjects;
import io.prmkit.softhca.device.Events;
import io.prmkit.softhca.device.Iommu;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The function's state as the command handlers see it (PRM "HCA initialization" chapter): enabled,
 * initialized, ISSI, the pages the driver gave, capability pages, registers, and the numbers handed
 * out for objects. Device thread only.
 */
public final class HcaState {
    /** Adapter page size (kernel MLX5_ADAPTER_PAGE_SIZE): pages given by MANAGE_PAGES. */
    public static final long PAGE_SIZE = 4096;

    public final Iommu iommu;
    public final DeviceObjects objects;
    public final Events events;
    public final Map<Integer, MemorySegment> capsMax = new TreeMap<>();
    public final Map<Integer, MemorySegment> capsCurrent = new TreeMap<>();

    boolean enabled;
    boolean initialized;
    /** TEARDOWN_HCA ran: every page may go back. */
    boolean tornDown;
    /**
     * The last INIT_HCA failed (ours): nothing was set up, so every page may go back, as Linux's
     * error unwinding (mlx5_reclaim_startup_pages, then DISABLE_HCA) expects. Cleared by a good
     * INIT_HCA and by ENABLE_HCA.
     */
    boolean initFailed;
    int issi;
    /** Pages held, in the order given (returned last-given first). */
    public final ArrayDeque<Long> pages = new ArrayDeque<>();
    public final Set<Long> pageSet = new HashSet<>();
    public final int bootPages;
    public final int initPages;
    /** Pages needed while running; moved by page-request faults. */
    int regularPages;
    boolean hostBigEndian;
    String driverVersion = "";
    /** QUERY_ADAPTER's block ({@code query_adapter_param_block}) from the caps profile. */
    public final MemorySegment adapter;
    /** UAR indexes in use; BAR 0 page index = UAR index. */
    public final Set<Integer> uars = new HashSet<>();
    public final int firstUar;
    public final int uarCount;
    private final Map<String, Integer> next = new TreeMap<>();

    /**
     * {@code max} and {@code current} give the capability page of each type of {@link CapTypes}
     * (copied), {@code adapter} the QUERY_ADAPTER block.
     */
    public HcaState(Iommu iommu, DeviceObjects objects, Events events, java.util.function.IntFunction<byte[]> max,
            java.util.function.IntFunction<byte[]> current, byte[] adapter, int bootPages, int initPages, int regularPages,
            int firstUar, int uarCount) {
        this.iommu = iommu;
        this.objects = objects;
        this.events = events;
        this.bootPages = bootPages;
        this.initPages = initPages;
        this.regularPages = regularPages;
        this.firstUar = firstUar;
        this.uarCount = uarCount;
        this.adapter = MemorySegment.ofArray(adapter.clone());
        for (int t : CapTypes.TYPES) {
            capsMax.put(t, MemorySegment.ofArray(max.apply(t).clone()));
            capsCurrent.put(t, MemorySegment.ofArray(current.apply(t).clone()));
        }
    }

    /** The current general capability page ({@code cmd_hca_cap}). */
    public MemorySegment general() {
        return capsCurrent.get(0);
    }

    /**
     * A page-request fault: the device needs {@code pages} more pages while running (fewer when
     * negative, never below giving back every boot and init page).
     */
    public void requestPages(int pages) {
        regularPages = Math.max(-(bootPages + initPages), regularPages + pages);
    }

    /** Pages the device needs in its present state. */
    public int requiredPages() {
        if (initialized) return bootPages + initPages + regularPages;
        return tornDown || initFailed ? 0 : bootPages + initPages;
    }

    /** The next number for objects of {@code kind}, starting at {@code first}. */
    public int nextNumber(String kind, int first) {
        int n = next.getOrDefault(kind, first);
        next.put(kind, n + 1);
        return n;
    }

    /**
     * The next number for objects of {@code kind} in {@code first..last}, wrapping after {@code last}
     * and skipping numbers {@code inUse}; -1 when every one is in use.
     */
    public int nextNumber(String kind, int first, int last, java.util.function.IntPredicate inUse) {
        for (long tries = (long) last - first + 1; tries > 0; tries--) {
            int n = next.getOrDefault(kind, first);
            next.put(kind, n >= last ? first : n + 1);
            if (!inUse.test(n)) return n;
        }
        return -1;
    }

    /** Forgets object numbering and resources (TEARDOWN_HCA). */
    public void forgetObjects() {
        objects.clear();
        uars.clear();
    }
}
