package io.prmkit.mlx5.conformance;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte images of hardware structures as the Linux driver builds them: a C program fills the
 * kernel's own structs (struct mlx5_err_cqe, mlx5_wqe_ctrl_seg, ...) with the kernel's constants,
 * masks and shifts, and prints the bytes. The generated accessors must read the same values back,
 * and building the same values with them must give the same bytes.
 */
final class KernelSamples {

    /** C statements per sample; each fills {@code v} (already zeroed) of the given type. */
    static final Map<String, String[]> SAMPLES = new LinkedHashMap<>();

    static {
        sample("err_cqe", "struct mlx5_err_cqe", """
                v.vendor_err_synd = 0x93;
                v.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
                v.s_wqe_opcode_qpn = htobe32((MLX5_OPCODE_SEND << 24) | 0x00abcd);
                v.wqe_counter = htobe16(0x1234);
                v.op_own = (MLX5_CQE_REQ_ERR << 4) | 1;
                """);
        sample("wqe_ctrl_seg", "struct mlx5_wqe_ctrl_seg", """
                v.opmod_idx_opcode = htobe32((0x01u << 24) | (0xbeefu << MLX5_WQE_CTRL_WQE_INDEX_SHIFT) | MLX5_OPCODE_LSO);
                v.qpn_ds = htobe32((0x12345u << MLX5_WQE_CTRL_QPN_SHIFT) | 5);
                v.fm_ce_se = MLX5_FENCE_MODE_INITIATOR_SMALL | MLX5_WQE_CTRL_CQ_UPDATE | MLX5_WQE_CTRL_SOLICITED;
                v.imm = htobe32(0xcafef00du);
                """);
        sample("eth_seg_inline", "struct mlx5_wqe_eth_seg", """
                v.cs_flags = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
                v.swp_flags = MLX5_ETH_WQE_SWP_OUTER_L4_UDP;
                v.mss = htobe16(1448);
                v.inline_hdr.sz = htobe16(18);
                v.inline_hdr.start[0] = 0xaa;
                v.inline_hdr.start[1] = 0xbb;
                """);
        sample("eth_seg_vlan", "struct mlx5_wqe_eth_seg", """
                v.insert.type = htobe16(MLX5_ETH_WQE_INSERT_VLAN);
                v.insert.vlan_tci = htobe16(0x2064);
                """);
        sample("cqe64_rx", "struct mlx5_cqe64", """
                v.rss_hash_type = CQE_RSS_HTYPE_IP & (1 << 2);
                v.hds_ip_ext = CQE_L3_OK | CQE_L4_OK;
                v.l4_l3_hdr_type = (CQE_L4_HDR_TYPE_UDP << 4) | (MLX5_CQE_ROCE_L3_HEADER_TYPE_IPV4 << 2) | 1;
                v.vlan_info = htobe16(0x0123);
                v.byte_cnt = htobe32(1514);
                v.timestamp_h = htobe32(0x11223344u);
                v.timestamp_l = htobe32(0x55667788u);
                v.wqe_counter = htobe16(0x77);
                v.op_own = (MLX5_CQE_RESP_SEND << 4) | 1;
                """);
        sample("eqe_page_request", "struct mlx5_eqe", """
                v.type = MLX5_EVENT_TYPE_PAGE_REQUEST;
                v.data.req_pages.func_id = htobe16(3);
                v.data.req_pages.num_pages = htobe32((u32)-5);
                v.owner = 1;
                """);
        sample("cmd_layout", "struct mlx5_cmd_layout", """
                v.type = MLX5_PCI_CMD_XPORT;
                v.inlen = htobe32(0x20);
                v.in_ptr = htobe64(0x12345600ull);
                v.token = 0x5a;
                v.status_own = (0x9 << 1) | CMD_OWNER_HW;
                """);
    }

    private static void sample(String name, String cType, String body) {
        SAMPLES.put(name, new String[] {cType, body});
    }

    private static Map<String, byte[]> images;

    /** The byte image of every sample, computed once per JVM. */
    static synchronized Map<String, byte[]> images() {
        if (images == null) {
            GroundTruth truth = GroundTruth.locate();
            Set<String> roots = new LinkedHashSet<>();
            StringBuilder main = new StringBuilder("""
                    static void dump(const char *name, const void *p, size_t n) {
                        printf("%s\\t", name);
                        for (size_t i = 0; i < n; i++) printf("%02x", ((const unsigned char *)p)[i]);
                        printf("\\n");
                    }
                    int main(void) {
                    """);
            Pattern ident = Pattern.compile("\\b[A-Za-z_]\\w*\\b");
            for (Map.Entry<String, String[]> e : SAMPLES.entrySet()) {
                String cType = e.getValue()[0];
                String body = e.getValue()[1];
                roots.add(cType);
                Matcher m = ident.matcher(body);
                while (m.find()) roots.add(m.group());
                main.append("    {\n        ").append(cType).append(" v;\n        memset(&v, 0, sizeof v);\n");
                body.lines().forEach(l -> main.append("        ").append(l).append('\n'));
                main.append("        dump(\"").append(e.getKey()).append("\", &v, sizeof v);\n    }\n");
            }
            main.append("    return 0;\n}\n");
            String src = new KernelSource(truth.mlx5Dir()).declarationsFor(roots)
                    .replace("#include <string.h>\n", "#include <string.h>\n#include <endian.h>\n") + main;
            Map<String, String[]> out = new Gcc(truth.gcc(), Path.of("target", "mlx5-conformance"))
                    .run("samples", src, List.of(truth.mlx5Dir().toString()));
            Map<String, byte[]> result = new LinkedHashMap<>();
            for (String name : SAMPLES.keySet()) {
                String[] line = out.get(name);
                if (line == null) throw new AssertionError("samples program printed nothing for " + name);
                result.put(name, HexFormat.of().parseHex(line[1]));
            }
            images = result;
        }
        return images;
    }

    private KernelSamples() {}
}
