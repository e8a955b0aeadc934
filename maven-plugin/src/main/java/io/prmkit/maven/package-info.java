/**
 * The prmkit Maven plugin (goal prefix {@code prmkit}): runs the generator during a Maven build.
 *
 * <p>No Mojo yet.
 */
package io.prmkit.maven;
