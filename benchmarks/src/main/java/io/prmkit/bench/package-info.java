/**
 * JMH benchmarks; {@code ./mvnw verify} compiles them and runs only their equivalence tests.
 *
 * <ul>
 *   <li>{@code WqeBuildBench}, {@code CqeParseBench}: the datapath, generated accessors vs the best
 *       hand-written FFM code (and, through {@code ./prmkit bench}, the C reference in
 *       {@code prm_bench.c});
 *   <li>{@code CheckScalingBench}: checking specs of 1k and 10k structs;
 *   <li>{@code ImportBench}: import, check and generate of the kernel's whole {@code mlx5_ifc.h}.
 *   <li>{@code DeviceLoopbackBench}: the soft HCA's cost per looped-back frame; {@code DeviceLoopbackCpu}
 *       runs the same work timed by the thread's CPU clock (readable on a loaded machine).
 * </ul>
 */
package io.prmkit.bench;
