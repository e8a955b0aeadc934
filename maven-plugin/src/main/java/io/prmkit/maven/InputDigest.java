package io.prmkit.maven;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * The fingerprint of everything that decides the generated output: the tool (plugin version, and
 * for snapshots the bytes of its code), the effective settings, every spec's path and content, and
 * every imported C header's.
 * Equal digests mean the previous output is still right; anything else regenerates all of it.
 */
final class InputDigest {
    /** Bump when the meaning of the digest or of the state file changes. */
    static final String FORMAT = "prmkit-incremental-2";

    private InputDigest() {}

    static String compute(String toolFingerprint, SortedMap<String, String> settings, List<SpecInput> inputs) {
        return compute(toolFingerprint, settings, inputs, List.of());
    }

    static String compute(String toolFingerprint, SortedMap<String, String> settings, List<SpecInput> inputs,
            List<SpecInput> headers) {
        Hashing h = new Hashing().add(FORMAT).add(toolFingerprint);
        h.add("settings").add(Integer.toString(settings.size()));
        for (Map.Entry<String, String> e : settings.entrySet()) {
            h.add(e.getKey()).add(e.getValue());
        }
        h.add("inputs").add(Integer.toString(inputs.size()));
        for (SpecInput in : inputs) {
            h.add(in.relativePath()).add(in.bytes());
        }
        h.add("headers").add(Integer.toString(headers.size()));
        for (SpecInput in : headers) {
            h.add(in.relativePath()).add(in.bytes());
        }
        return h.hex();
    }
}
