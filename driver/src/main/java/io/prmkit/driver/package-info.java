/**
 * The mlx5 driver, written against the generated accessors of {@code io.prmkit.mlx5} and the
 * {@code io.prmkit.platform} boundary only. Layers, in the kernel's order:
 *
 * <ul>
 *   <li>{@link io.prmkit.driver.cmd}: PRM "Command Interface" (initialization segment, command queue,
 *       mailboxes, status, trace);
 *   <li>{@link io.prmkit.driver.core}: HCA bring-up and teardown, firmware pages, capabilities, health;
 *   <li>{@link io.prmkit.driver.res}: the device objects (UAR, PD, EQ, CQ, SQ, RQ, TIR, flow tables, ...);
 *   <li>{@link io.prmkit.driver.eth}: an Ethernet port on top of them.
 * </ul>
 *
 * See docs/driver.md.
 */
package io.prmkit.driver;
