package io.prmkit.driver.eth;

import io.prmkit.mlx5.SqState;

/**
 * The control path's side of send queue error recovery: MODIFY_SQ of one SQ from one state to
 * another. {@code TxQueue} calls it with ERR→RST, then RST→RDY, after an error CQE. It runs on the
 * thread that polls the queue and blocks until the command completes; it throws if the command fails.
 */
@FunctionalInterface
public interface SqControl {
    void modifySq(int sqn, SqState from, SqState to);
}
