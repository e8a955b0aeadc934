package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandTransport;
import java.lang.foreign.MemorySegment;

/**
 * Receive steering on a function whose NIC receive tables the kernel keeps (a card bound to the
 * kernel's mlx5_core, reached through DEVX): the kernel refuses a DEVX context SET_FLOW_TABLE_ROOT
 * (the root table is its own) and MODIFY_NIC_VPORT_CONTEXT (MTU, MAC and promiscuous mode are {@code
 * ip link}'s), so a port's rules go into the kernel's tables through rdma-core ({@code
 * mlx5dv_create_flow_matcher} and {@code mlx5dv_create_flow}, as DPDK's mlx5 PMD steers to its DEVX
 * TIRs), and what the vport context holds is left to the kernel. A function we brought up, or that
 * rdma-core's mlx5_vfio keeps, has none ({@link DeviceAccess#kernelSteering()} is empty): there the
 * PRM's own flow tables, made root, are the port's.
 */
public interface KernelSteering {

    /** The function as its user names it (mlx5_0), for messages that say what to do with {@code ip link}. */
    String name();

    /**
     * A rule in the kernel's NIC receive tables: packets whose match parameters ({@code
     * fte_match_param}, the parts named by {@code matchCriteriaEnable} as in a flow group) equal
     * {@code value} under {@code mask} go to TIR {@code tirn}, created with handle {@code tir} on this
     * function's transport. Closing the result removes the rule (before the TIR is destroyed).
     */
    Rule forwardToTir(int matchCriteriaEnable, MemorySegment mask, MemorySegment value, int tirn, CommandTransport.ObjectHandle tir);

    /** A rule in the kernel's tables; {@link #close} removes it. */
    interface Rule extends AutoCloseable {
        @Override
        void close();
    }
}
