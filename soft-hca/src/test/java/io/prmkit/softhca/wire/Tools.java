package io.prmkit.softhca.wire;

import io.prmkit.dsl.Child;
import io.prmkit.dsl.HostTools;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs a system tool for a test: missing outside CI skips with one line; missing in CI fails (HostTools). */
public final class Tools {
    private Tools() {}

    /** Stdout of the command ({@code tshark} as found by HostTools), which must exit 0 within two minutes. */
    public static String run(String... cmd) throws Exception {
        List<String> c = new ArrayList<>(List.of(cmd));
        if (c.get(0).equals("tshark")) c.set(0, HostTools.tshark());
        return Child.run(Duration.ofMinutes(2), c).assertSuccess().stdout();
    }
}
