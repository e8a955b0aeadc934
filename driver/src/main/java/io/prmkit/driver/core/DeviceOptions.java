package io.prmkit.driver.core;

import io.prmkit.driver.cmd.CommandInterface;
import io.prmkit.driver.cmd.CommandTrace;
import java.time.Duration;

/**
 * How {@link Mlx5Device#open} runs the device.
 *
 * @param commands         command interface timeouts and trace
 * @param healthInterval   how often the health poller reads the health registers (Linux: 2 s)
 * @param heartbeatMisses  polls in a row with an unchanged health counter that mean the firmware
 *                         is dead (Linux: 3); 0 switches the heartbeat check off
 * @param pageLimit        most 4 KiB pages the driver lends the firmware; beyond it page requests
 *                         are answered with ALLOCATION_FAIL
 * @param commandEvents    complete commands by command-completion EQEs once the async EQ exists
 *                         (polling otherwise, and always before it exists)
 * @param asyncEqLogSize   log2 of the entries of the async EQ (page requests, port changes, commands, errors);
 *                         0 creates no async EQ (no UAR either): commands complete by polling and
 *                         page requests after bring-up go unanswered (a device without EQs, or tests)
 * @param driverVersion    the text SET_DRIVER_VERSION sends (at most 64 bytes)
 */
public record DeviceOptions(CommandInterface.Options commands, Duration healthInterval, int heartbeatMisses, long pageLimit,
                            boolean commandEvents, int asyncEqLogSize, String driverVersion) {

    public DeviceOptions {
        if (healthInterval.isNegative() || healthInterval.isZero()) throw new IllegalArgumentException("healthInterval must be positive");
        if (heartbeatMisses < 0) throw new IllegalArgumentException("heartbeatMisses must be >= 0");
        if (pageLimit < 0) throw new IllegalArgumentException("pageLimit must be >= 0");
        if (asyncEqLogSize < 0 || asyncEqLogSize > 12) throw new IllegalArgumentException("asyncEqLogSize must be 0..12");
        if (driverVersion.length() > 64) throw new IllegalArgumentException("driverVersion longer than 64 bytes");
    }

    public static DeviceOptions defaults() {
        return new DeviceOptions(CommandInterface.Options.defaults(), Duration.ofSeconds(2), 3, 1L << 20, true, 8,
                "prmkit,mlx5,0.1.0");
    }

    public DeviceOptions withTrace(CommandTrace trace) {
        return withCommands(new CommandInterface.Options(commands.initTimeout(), commands.commandTimeout(), trace));
    }

    public DeviceOptions withCommandTimeout(Duration timeout) {
        return withCommands(new CommandInterface.Options(commands.initTimeout(), timeout, commands.trace()));
    }

    public DeviceOptions withCommands(CommandInterface.Options c) {
        return new DeviceOptions(c, healthInterval, heartbeatMisses, pageLimit, commandEvents, asyncEqLogSize, driverVersion);
    }

    public DeviceOptions withHealth(Duration interval, int misses) {
        return new DeviceOptions(commands, interval, misses, pageLimit, commandEvents, asyncEqLogSize, driverVersion);
    }

    public DeviceOptions withPageLimit(long limit) {
        return new DeviceOptions(commands, healthInterval, heartbeatMisses, limit, commandEvents, asyncEqLogSize, driverVersion);
    }

    public DeviceOptions withAsyncEqLogSize(int log) {
        return new DeviceOptions(commands, healthInterval, heartbeatMisses, pageLimit, commandEvents, log, driverVersion);
    }

    public DeviceOptions withCommandEvents(boolean on) {
        return new DeviceOptions(commands, healthInterval, heartbeatMisses, pageLimit, on, asyncEqLogSize, driverVersion);
    }
}
