/**
 * The generator: turns the layout IR of {@code io.prmkit.dsl} into Java source for Panama FFM
 * {@code MemorySegment} accessors, emitted with JavaPoet.
 *
 * <p>Targets Java 17 (it runs inside Maven): it only names the {@code java.lang.foreign} types in
 * the code it writes and never uses them itself.
 */
package io.prmkit.generator;
