package io.prmkit.driver.res;

import io.prmkit.driver.cmd.CommandTransport;
import io.prmkit.driver.core.DeviceObject;
import io.prmkit.driver.core.KernelSteering;
import io.prmkit.mlx5.FteMatchParam;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * A receive steering rule in the kernel's NIC receive tables ({@link KernelSteering}): what a flow
 * group's mask and a flow table entry's value say on our own tables ({@link FlowGroup}, {@link
 * FlowEntry}), the same {@code fte_match_param} bytes (the spec's layout, 512 bytes), handed to
 * rdma-core instead; it forwards to a TIR. The id is 0: the kernel numbers its rules itself.
 */
public final class KernelFlowRule extends DeviceObject {
    private final KernelSteering.Rule rule;
    private final MemorySegment mask;
    private final MemorySegment value;
    private final int criteriaEnable;

    private KernelFlowRule(CommandTransport cmd, KernelSteering.Rule rule, int criteriaEnable, MemorySegment mask, MemorySegment value) {
        super(cmd, null, 0);
        this.rule = rule;
        this.criteriaEnable = criteriaEnable;
        this.mask = mask;
        this.value = value;
    }

    /**
     * A rule forwarding to {@code tir}: {@code criteria} fills the mask and {@code value} the value, each
     * an {@code fte_match_param} (null: all zero), with {@code criteriaEnable} as a flow group's
     * {@code match_criteria_enable} (0 with no criteria: every packet matches).
     */
    public static KernelFlowRule forwardToTir(CommandTransport cmd, KernelSteering steering, int criteriaEnable, Consumer<MemorySegment> criteria,
            Consumer<MemorySegment> value, Tir tir) {
        MemorySegment m = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        MemorySegment v = MemorySegment.ofArray(new byte[(int) FteMatchParam.SIZE]);
        if (criteria != null) criteria.accept(m);
        if (value != null) value.accept(v);
        KernelSteering.Rule rule = steering.forwardToTir(criteriaEnable, m, v, tir.id(), tir.handle());
        return new KernelFlowRule(cmd, rule, criteriaEnable, m.asReadOnly(), v.asReadOnly());
    }

    /** The mask as given to the kernel (an fte_match_param). */
    public MemorySegment mask() {
        return mask;
    }

    /** The value as given to the kernel (an fte_match_param). */
    public MemorySegment value() {
        return value;
    }

    public int criteriaEnable() {
        return criteriaEnable;
    }

    @Override
    protected void destroy() {
        rule.close();
    }
}
