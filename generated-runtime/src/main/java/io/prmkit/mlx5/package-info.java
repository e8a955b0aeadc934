/**
 * Generated Panama FFM accessors for the mlx5 structures of NVIDIA's Programmer's Reference
 * Manual: one class per structure, static getters and setters over a {@code MemorySegment} at
 * the byte offsets and bit ranges given by the bundled spec.
 *
 * <p>Nothing is here yet: the classes will be generated into this package at build time by the
 * prmkit Maven plugin (module {@code maven-plugin}) running in this same reactor.
 */
package io.prmkit.mlx5;
