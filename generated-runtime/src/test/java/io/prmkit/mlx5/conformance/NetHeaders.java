package io.prmkit.mlx5.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The C side for the net spec (package net): the kernel headers package's uapi linux/in.h (IPPROTO_*),
 * linux/if_ether.h, ip.h, ipv6.h, tcp.h and udp.h, compiled as they are, plus struct vlan_hdr and
 * the VLAN_* masks copied out of include/linux/if_vlan.h (a kernel-only header that cannot be
 * included in user space).
 *
 * <p>The package's include/uapi is the source tree's, not the copy {@code make headers_install}
 * cleans up: its linux/stddef.h includes linux/compiler_types.h and its byteorder headers use the
 * sparse annotation {@code __force}. A one-file shim supplies both (as empty macros), which is
 * what headers_install does by deleting them. {@code asm/} comes from the C library's headers.
 */
final class NetHeaders {
    private NetHeaders() {}

    static final List<String> UAPI = List.of("if_ether.h", "in.h", "ip.h", "ipv6.h", "tcp.h", "udp.h");
    /** What is copied out of include/linux/if_vlan.h. */
    static final List<String> VLAN_DEFINES = List.of("VLAN_PRIO_MASK", "VLAN_PRIO_SHIFT", "VLAN_CFI_MASK", "VLAN_VID_MASK");

    private static final Path SHIM = Path.of("target", "mlx5-conformance", "uapi-shim");

    /** The translation unit's declarations: libc, the uapi headers, then vlan_hdr and its masks. */
    static String source(GroundTruth truth) {
        StringBuilder sb = new StringBuilder("""
                #include <stddef.h>
                #include <stdio.h>
                #include <string.h>
                #include <endian.h>
                """);
        for (String h : UAPI) sb.append("#include <linux/").append(h).append(">\n");
        sb.append('\n').append(fromIfVlan(truth)).append('\n');
        return sb.toString();
    }

    /** -I folders: the shim, then the package's include/uapi (ahead of the C library's linux/). */
    static List<String> includeDirs(GroundTruth truth) {
        try {
            Path linux = SHIM.resolve("linux");
            Files.createDirectories(linux);
            Files.writeString(linux.resolve("compiler_types.h"),
                    "/* prmkit conformance: what headers_install strips from the uapi headers */\n#define __force\n#define __user\n");
        } catch (IOException e) {
            throw new AssertionError("cannot write the uapi shim under " + SHIM.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        return List.of(SHIM.toAbsolutePath().toString(), truth.uapiDir().toString());
    }

    static String fromIfVlan(GroundTruth truth) {
        Path h = truth.linuxDir().resolve("if_vlan.h");
        String text;
        try {
            text = Files.readString(h).replaceAll("(?s)/\\*.*?\\*/", " ");
        } catch (IOException e) {
            throw new AssertionError("cannot read " + h + ": " + e.getMessage(), e);
        }
        StringBuilder sb = new StringBuilder();
        Matcher m = Pattern.compile("(?s)\\nstruct vlan_hdr \\{.*?\\};").matcher(text);
        if (!m.find()) throw new AssertionError(h + " has no struct vlan_hdr");
        sb.append(m.group().strip()).append('\n');
        for (String d : VLAN_DEFINES) {
            Matcher dm = Pattern.compile("(?m)^#define\\s+" + d + "\\s+[^\\n]+$").matcher(text);
            if (!dm.find()) throw new AssertionError(h + " does not define " + d);
            sb.append(dm.group().strip()).append('\n');
        }
        return sb.toString();
    }
}
