package io.prmkit.driver.devx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * Runs a test class once per {@link Transport}: the class takes the transport as a field
 * ({@code @Parameter Transport transport;}) and opens its device with {@link TestDevice#open}. The
 * {@code DEVX} run of the whole class happens in one child JVM with the VFIO stand-in preloaded,
 * whose result for each test method is reported as that method's ({@link OverBothTransports}). A
 * method that cannot run over DEVX says why with {@link CommandQueueOnly}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedClass(name = "{0}")
@ArgumentsSource(OverBothTransports.class)
@ExtendWith(OverBothTransports.class)
public @interface BothTransports {
}
