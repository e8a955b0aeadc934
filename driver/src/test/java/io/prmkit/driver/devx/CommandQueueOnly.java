package io.prmkit.driver.devx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test method of a {@link BothTransports} class that runs on the command queue only; {@link #value()}
 * says why it cannot run over DEVX (shown as the reason the DEVX run of it is disabled).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface CommandQueueOnly {
    /** Why not over DEVX. */
    String value();
}
