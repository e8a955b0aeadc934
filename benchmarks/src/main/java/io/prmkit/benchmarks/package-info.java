/**
 * JMH benchmarks of the generated accessors. {@code ./mvnw verify} compiles them but never runs
 * them.
 *
 * <p>Placeholder: no benchmarks yet.
 */
package io.prmkit.benchmarks;
