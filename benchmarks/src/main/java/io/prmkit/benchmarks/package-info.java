/**
 * JMH benchmarks of the generated accessors. {@code ./mvnw verify} compiles them but never runs
 * them.
 *
 * <p>The DSL compiler's scaling benchmark is {@code io.prmkit.bench.CheckScalingBench}.
 */
package io.prmkit.benchmarks;
