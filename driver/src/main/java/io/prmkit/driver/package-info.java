/**
 * The mlx5 driver, written against the generated accessors of {@code io.prmkit.mlx5}.
 *
 * <p>Placeholder: no driver code yet.
 */
package io.prmkit.driver;
