package io.prmkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayoutCommandTest {
    static final String SPEC = """
            package mlx5;
            /// Control segment.
            struct wqe_ctrl_seg size 0x10 ref "PRM 8.9.4.1" {
                0x00 [31:24] opc_mod          "Opcode modifier";
                0x00 [23:8]  wqe_index;
                0x00 [7:0]   opcode;
                0x04 [31:8]  qpn;
                0x04 [7:6]   reserved;
                0x04 [5:0]   ds range 1..63   "WQE size in 16-byte units";
                0x08         sig : u32;
                0x0c         imm : u32        "Immediate \\"data\\"";
            }
            struct seq { a : 8; b : u8[3]; pas : u64[]; }
            """;

    @TempDir
    Path dir;

    Path spec(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void csvHasTheExactHeaderAndOneRowPerMember() throws IOException {
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--format", "csv", spec("a.prm", SPEC).toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("""
                struct,field,bit_offset,bit_width
                seq,a,0,8
                seq,b,8,24
                seq,pas,32,0
                wqe_ctrl_seg,opc_mod,0,8
                wqe_ctrl_seg,wqe_index,8,16
                wqe_ctrl_seg,opcode,24,8
                wqe_ctrl_seg,qpn,32,24
                wqe_ctrl_seg,reserved_at_38,56,2
                wqe_ctrl_seg,ds,58,6
                wqe_ctrl_seg,sig,64,32
                wqe_ctrl_seg,imm,96,32
                """, run.out());
    }

    @Test
    void tableShowsPrmRows() throws IOException {
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--struct", "wqe_ctrl_seg", spec("a.prm", SPEC).toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("""
                struct mlx5.wqe_ctrl_seg (0x10 bytes, PRM 8.9.4.1)  Control segment.
                  offset bits           field           doc
                  0x00   [31:24]        opc_mod         Opcode modifier
                  0x00   [23:8]         wqe_index
                  0x00   [7:0]          opcode
                  0x04   [31:8]         qpn
                  0x04   [7:6]          reserved_at_38
                  0x04   [5:0]          ds              WQE size in 16-byte units
                  0x08   [31:0]         sig
                  0x0c   [31:0]         imm             Immediate "data"
                """, run.out());
    }

    @Test
    void jsonIsStableAndEscaped() throws IOException {
        Path p = spec("a.prm", SPEC);
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--format", "json", "--struct", "mlx5.wqe_ctrl_seg", p.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("{\n  \"structs\": [\n    {\"name\": \"mlx5.wqe_ctrl_seg\", \"kind\": \"struct\", \"sizeBytes\": 16"), run.out());
        assertTrue(run.out().contains("{\"name\": \"ds\", \"bitOffset\": 58, \"bitWidth\": 6, \"dword\": 1, \"hi\": 5, \"lo\": 0, \"type\": \"6 bits\", "
                + "\"reserved\": false, \"access\": \"rw\", \"min\": 1, \"max\": 63, \"doc\": \"WQE size in 16-byte units\", \"file\": \"" + p + "\", \"line\": 9}"), run.out());
        assertTrue(run.out().contains("\"doc\": \"Immediate \\\"data\\\"\""), run.out());
        assertEquals(run.out(), PrmkitCliTest.run("layout", "--format", "json", "--struct", "mlx5.wqe_ctrl_seg", p.toString()).out());
    }

    @Test
    void joinsAreListedAfterTheMembersAndInTheJson() throws IOException {
        Path p = spec("j.prm", """
                package p;
                enum am width 5 { PA = 0; MTT = 1; }
                struct mkc size 8 {
                    0x00 [31:29] access_mode_4_2;
                    0x00 [28:2]  reserved;
                    0x00 [1:0]   access_mode_1_0;
                    0x04 [31:12] addr_low;
                    0x04 [11:0]  reserved;
                    join access_mode = access_mode_4_2, access_mode_1_0 enum am "Access mode";
                }
                """);
        PrmkitCliTest.Run table = PrmkitCliTest.run("layout", p.toString());
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().endsWith("  join   access_mode = access_mode_4_2 [4:2], access_mode_1_0 [1:0] (5 bits, enum p.am)  Access mode\n"), table.out());
        PrmkitCliTest.Run json = PrmkitCliTest.run("layout", "--format", "json", p.toString());
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().contains("\"rules\": [], \"joins\": [{\"name\": \"access_mode\", \"bitWidth\": 5, \"parts\": ["
                + "{\"field\": \"access_mode_4_2\", \"shift\": 2, \"width\": 3}, {\"field\": \"access_mode_1_0\", \"shift\": 0, \"width\": 2}], "
                + "\"enum\": \"p.am\", \"doc\": \"Access mode\"}]}"), json.out());
    }

    @Test
    void unknownStructIsAnError() throws IOException {
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--struct", "nope", spec("a.prm", SPEC).toString());
        assertEquals(1, run.exitCode());
        assertEquals("prmkit layout: no struct named 'nope'\n", run.err());
        assertEquals("", run.out());
    }

    @Test
    void badSpecPrintsDiagnosticsAndNoLayout() throws IOException {
        Path p = spec("bad.prm", "package p;\nstruct a {\n    0x00 [8:23] x;\n}\n");
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--format", "csv", p.toString());
        assertEquals(1, run.exitCode());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith(p + ":3:10: error: bit range [8:23] is reversed"), run.err());
    }

    @Test
    void jsonFlexibleArraysOneBitFieldsAndTheFileOfEachMember() throws IOException {
        Path p = spec("f.prm", "package p;\nstruct f {\n    0x00 [31] flag;\n    0x00 [30:0] rest;\n    0x04 pas : u64[];\n}\n");
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--format", "json", p.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("{\"name\": \"flag\", \"bitOffset\": 0, \"bitWidth\": 1, \"dword\": 0, \"hi\": 31, \"lo\": 31, "
                + "\"type\": \"1 bit\", "), run.out());
        assertTrue(run.out().contains("{\"name\": \"pas\", \"bitOffset\": 32, \"bitWidth\": 0, \"dword\": 1, \"hi\": 31, \"lo\": 31, "
                + "\"type\": \"u64[]\", "), run.out());
        assertTrue(run.out().contains("\"file\": \"" + p + "\", \"line\": 5}"), run.out());
    }

    @Test
    void theBundledSpecsFlexibleArraysHaveNoReversedRange() {
        PrmkitCliTest.Run run = PrmkitCliTest.run("layout", "--format", "json");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("\"type\": \"u64[]\""), "the bundled spec has flexible arrays");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"hi\": (\\d+), \"lo\": (\\d+)").matcher(run.out());
        int ranges = 0;
        while (m.find()) {
            ranges++;
            assertTrue(Integer.parseInt(m.group(1)) >= Integer.parseInt(m.group(2)), m.group());
            assertTrue(Integer.parseInt(m.group(2)) <= 31, m.group());
        }
        assertTrue(ranges > 1000, "ranges: " + ranges);
    }
}
