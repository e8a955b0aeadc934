/**
 * The PRM DSL: a textual description of the mlx5 structures from NVIDIA's Programmer's Reference
 * Manual (names, byte offsets, bit ranges), its parser and the layout IR the parser produces.
 *
 * <p>The ANTLR4 grammar lives in {@code src/main/antlr4/io/prmkit/dsl/parser/}; the generated
 * parser lands in {@code io.prmkit.dsl.parser}. This module targets Java 17 because it also runs
 * inside Maven through the prmkit Maven plugin.
 */
package io.prmkit.dsl;
