package io.prmkit.generator;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Access;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.Constraints;
import io.prmkit.dsl.ir.Doc;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.EnumLayout.EnumValue;
import io.prmkit.dsl.ir.Expr;
import io.prmkit.dsl.ir.FieldRef;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.MemberType;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.Rule;
import io.prmkit.dsl.ir.StructLayout;
import io.prmkit.dsl.ir.Variant;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Hand-built layout IR for generator tests (the DSL compiler is not needed to test emission).
 * The layouts follow the mlx5 PRM (send WQE segments, a command mailbox) closely enough to be
 * representative; values and names of the kernel's mlx5_ifc.h where they exist.
 */
public final class Fixtures {
    private Fixtures() {}

    public static final String PKG = "mlx5";

    private static List<StructLayout> sorted(List<StructLayout> structs) {
        List<StructLayout> out = new ArrayList<>(structs);
        out.sort(java.util.Comparator.comparing(StructLayout::name));
        return out;
    }

    public static QualifiedName q(String name) {
        return new QualifiedName(PKG, name);
    }

    public static SourceLocation at(String file, int line) {
        return new SourceLocation(file, line, 5);
    }

    /** A fluent member builder; {@code dw}/{@code hi}/{@code lo} are PRM notation. */
    public static final class M {
        private final String name;
        private long bit;
        private MemberType type;
        private boolean reserved;
        private Access access = Access.RW;
        private Optional<QualifiedName> enumType = Optional.empty();
        private Optional<QualifiedName> flagsType = Optional.empty();
        private Constraints constraints = Constraints.NONE;
        private Optional<FieldRef> capability = Optional.empty();
        private Optional<Variant> variant = Optional.empty();
        private String selector = "";
        private Doc doc = Doc.NONE;
        private SourceLocation location = SourceLocation.NONE;

        private M(String name) {
            this.name = name;
        }

        public static M field(String name, int dwordByte, int hi, int lo) {
            M m = new M(name);
            m.bit = dwordByte * 8L + (31 - hi);
            m.type = new MemberType.Bits(hi - lo + 1);
            return m;
        }

        public static M at(String name, long bit, MemberType type) {
            M m = new M(name);
            m.bit = bit;
            m.type = type;
            return m;
        }

        public static M reserved(long bit, long width) {
            M m = new M("reserved_at_" + Long.toHexString(bit));
            m.bit = bit;
            m.type = width <= 64 ? new MemberType.Bits((int) width) : new MemberType.Bytes((int) (width / 8));
            m.reserved = true;
            m.constraints = Constraints.MBZ;
            return m;
        }

        public M access(Access a) { access = a; return this; }
        public M enumType(String e) { enumType = Optional.of(q(e)); return this; }
        public M flags(String f) { flagsType = Optional.of(q(f)); return this; }
        public M range(long min, long max) { constraints = new Constraints(OptionalLong.of(min), OptionalLong.of(max), false, false, false); return this; }
        public M log2() { constraints = new Constraints(constraints.min(), constraints.max(), false, true, constraints.mustBeZero()); return this; }
        public M pow2() { constraints = new Constraints(constraints.min(), constraints.max(), true, false, constraints.mustBeZero()); return this; }
        public M mbz() { constraints = Constraints.MBZ; return this; }
        public M cap(String struct, String f) { capability = Optional.of(new FieldRef(q(struct), f)); return this; }
        public M variant(String union, String alt, String sel, Long tag) {
            variant = Optional.of(new Variant(union, alt, sel, tag == null ? OptionalLong.empty() : OptionalLong.of(tag)));
            return this;
        }
        public M selector(String s) { selector = s; return this; }
        public M doc(String text) { doc = new Doc(text, doc.prmRef(), doc.since()); return this; }
        public M doc(String text, String ref) { doc = new Doc(text, ref, ""); return this; }
        public M line(String file, int line) { location = Fixtures.at(file, line); return this; }

        public Member build() {
            return new Member(name, bit, type, reserved, access, enumType, flagsType, constraints, capability, variant, selector, doc, location);
        }
    }

    public static StructLayout struct(String name, long size, List<M> members, List<Rule> rules, String doc, String file, int line) {
        List<Member> ms = new ArrayList<>();
        members.forEach(m -> ms.add(m.build()));
        return new StructLayout(q(name), StructLayout.Kind.STRUCT, size, ByteOrder.BIG_ENDIAN, ms, rules, new Doc(doc, "", ""), at(file, line));
    }

    public static EnumValue value(String name, long v, String doc) {
        return new EnumValue(name, v, new Doc(doc, "", ""), "", SourceLocation.NONE);
    }

    public static EnumValue value(String name, long v, String doc, String detail, String file, int line) {
        return new EnumValue(name, v, new Doc(doc, "", ""), detail, at(file, line));
    }

    // ---- 1: control segment with enums and a rule --------------------------------------------

    public static EnumLayout sendWqeOpcode() {
        return new EnumLayout(q("send_wqe_opcode"), EnumLayout.Kind.ENUM, 8, List.of(
                value("NOP", 0x00, "No operation", "", "wqe.prm", 3),
                value("SEND", 0x0a, "Send", "", "wqe.prm", 4),
                value("LSO", 0x0e, "Large send offload (TSO)", "", "wqe.prm", 5),
                value("RDMA_WRITE", 0x08, "RDMA write", "", "wqe.prm", 6),
                value("UMR", 0x25, "User memory registration", "", "wqe.prm", 7),
                value("ENHANCED_MPSW", 0x29, "Enhanced multi-packet send", "", "wqe.prm", 8)),
                new Doc("Send WQE opcodes", "PRM 8.9.4.1", ""), at("wqe.prm", 2));
    }

    public static EnumLayout completionMode() {
        return new EnumLayout(q("completion_mode"), EnumLayout.Kind.ENUM, 2, List.of(
                value("CQE_ON_ERROR", 0, "CQE only on error"),
                value("CQE_ON_FIRST_ERROR", 1, "CQE only on the first error"),
                value("CQE_ALWAYS", 2, "CQE always"),
                value("CQE_AND_EQE", 3, "CQE and EQE")),
                new Doc("When to write a CQE", "", ""), at("wqe.prm", 10));
    }

    public static StructLayout wqeCtrlSeg() {
        Rule rule = new Rule("ds_not_zero",
                new Expr.Binary(Expr.BinaryOp.NE, new Expr.FieldValue("ds"), new Expr.Literal(0, "0")),
                "a WQE holds at least its control segment (ds >= 1)", at("wqe.prm", 30));
        return struct("wqe_ctrl_seg", 16, List.of(
                M.field("opc_mod", 0x00, 31, 24).doc("Opcode modifier").line("wqe.prm", 17),
                M.field("wqe_index", 0x00, 23, 8).doc("WQE counter of this WQE, in 64-byte units").line("wqe.prm", 18),
                M.field("opcode", 0x00, 7, 0).enumType("send_wqe_opcode").doc("What the WQE does").line("wqe.prm", 19),
                M.field("qpn", 0x04, 31, 8).doc("Send queue (or QP) number").line("wqe.prm", 20),
                M.reserved(0x38, 2).line("wqe.prm", 21),
                M.field("ds", 0x04, 5, 0).range(1, 63).doc("WQE size in 16-byte units").line("wqe.prm", 22),
                M.field("signature", 0x08, 31, 24).line("wqe.prm", 23),
                M.reserved(0x48, 16).line("wqe.prm", 24),
                M.field("fm", 0x08, 7, 5).doc("Fence mode").line("wqe.prm", 25),
                M.reserved(0x5b, 1).line("wqe.prm", 26),
                M.field("ce", 0x08, 3, 2).enumType("completion_mode").doc("When to write a CQE").line("wqe.prm", 27),
                M.field("se", 0x08, 1, 1).doc("Solicited event").line("wqe.prm", 28),
                M.reserved(0x5f, 1).line("wqe.prm", 28),
                M.field("imm", 0x0c, 31, 0).doc("Immediate data / invalidation key").line("wqe.prm", 29)),
                List.of(rule, new Rule("low_bit_clear", new Expr.Binary(Expr.BinaryOp.EQ, new Expr.FieldValue("reserved_at_5f"), new Expr.Literal(0, "0")),
                        "a rule may read reserved space (test rule)", at("wqe.prm", 31))),
                "Control segment: the first 16 bytes of every send WQE", "wqe.prm", 16);
    }

    // ---- 2: 64-bit field, byte array, nested struct, struct array, scalar array ------------

    public static StructLayout wqeDataSeg() {
        return struct("wqe_data_seg", 16, List.of(
                M.field("byte_count", 0x00, 31, 0).doc("Bytes to send from this buffer").line("wqe.prm", 40),
                M.field("lkey", 0x04, 31, 0).doc("Local key of the memory region").line("wqe.prm", 41),
                M.at("addr", 0x40, new MemberType.Bits(64)).doc("Buffer address").line("wqe.prm", 42)),
                List.of(), "Data (pointer) segment", "wqe.prm", 39);
    }

    public static StructLayout sampleEntry() {
        return struct("flow_sample", 0x50, List.of(
                M.at("packet_count", 0, new MemberType.Bits(64)).doc("Packets seen").line("sample.prm", 3),
                M.at("timestamp", 0x40, new MemberType.Bits(48)).log2().doc("Time stamp <in ns> & \"raw\"").line("sample.prm", 4),
                M.reserved(0x70, 16).line("sample.prm", 5),
                M.at("dmac", 0x80, new MemberType.Bytes(6)).doc("Destination MAC").line("sample.prm", 6),
                M.field("vlan", 0x14, 15, 0).pow2().line("sample.prm", 7),
                M.at("prio", 0xc0, new MemberType.Array(new MemberType.Bits(4), 8, false)).doc("Priority nibbles").line("sample.prm", 8),
                M.at("words", 0xe0, new MemberType.Array(new MemberType.Bits(16), 2, false)).line("sample.prm", 9),
                M.at("data", 0x100, new MemberType.StructRef(q("wqe_data_seg"), 128)).doc("The buffer").line("sample.prm", 10),
                M.at("more", 0x180, new MemberType.Array(new MemberType.StructRef(q("wqe_data_seg"), 128), 2, false)).line("sample.prm", 11)),
                List.of(), "A sampled flow record (test layout)", "sample.prm", 2);
    }

    // ---- 3: inline union with flags -------------------------------------------------------

    public static EnumLayout csFlags() {
        return new EnumLayout(q("cs_flags"), EnumLayout.Kind.FLAGS, 8, List.of(
                value("L3_INNER_CSUM", 4, "Inner L3 checksum"),
                value("L4_INNER_CSUM", 5, "Inner L4 checksum"),
                value("L3_CSUM", 6, "L3 checksum"),
                value("L4_CSUM", 7, "L4 checksum")),
                new Doc("Checksum offload flags", "", ""), at("wqe.prm", 50));
    }

    public static StructLayout wqeEthSeg() {
        return struct("wqe_eth_seg", 16, List.of(
                M.field("swp_outer_l4_offset", 0x00, 31, 24).cap("cmd_hca_cap", "swp").doc("Outer L4 offset in 2-byte units").line("wqe.prm", 60),
                M.field("swp_outer_l3_offset", 0x00, 23, 16).cap("cmd_hca_cap", "swp").line("wqe.prm", 61),
                M.field("swp_inner_l4_offset", 0x00, 15, 8).cap("cmd_hca_cap", "swp").line("wqe.prm", 62),
                M.field("swp_inner_l3_offset", 0x00, 7, 0).cap("cmd_hca_cap", "swp").line("wqe.prm", 63),
                M.field("cs_flags", 0x04, 31, 24).flags("cs_flags").doc("Checksum offloads").line("wqe.prm", 64),
                M.field("swp_flags", 0x04, 23, 16).line("wqe.prm", 65),
                M.field("mss", 0x04, 15, 0).doc("TSO segment size; 0 unless LSO").line("wqe.prm", 66),
                M.field("flow_table_metadata", 0x08, 31, 0).line("wqe.prm", 67),
                M.field("inline_hdr_sz", 0x0c, 31, 16).variant("union_at_60", "inline_hdr", "", null).range(0, 1023)
                        .doc("Bytes of packet headers inlined here").line("wqe.prm", 70),
                M.at("inline_hdr_start", 0x70, new MemberType.Bytes(2)).variant("union_at_60", "inline_hdr", "", null)
                        .doc("First two inlined header bytes").line("wqe.prm", 71),
                M.field("insert_type", 0x0c, 31, 16).variant("union_at_60", "insert", "", null).line("wqe.prm", 74),
                M.field("vlan_tci", 0x0c, 15, 0).variant("union_at_60", "insert", "", null).doc("VLAN tag to insert").line("wqe.prm", 75),
                M.field("trailer", 0x0c, 31, 0).variant("union_at_60", "trailer", "", null).doc("Trailer to insert").line("wqe.prm", 77)),
                List.of(), "Ethernet segment", "wqe.prm", 59);
    }

    // ---- 4: command mailbox with a flexible array, access modes and a tagged union ---------

    public static StructLayout createCqIn() {
        return struct("create_cq_in", 0x18, List.of(
                M.field("opcode", 0x00, 31, 16).access(Access.IN).line("cmd.prm", 10),
                M.field("uid", 0x00, 15, 0).access(Access.IN).line("cmd.prm", 11),
                M.reserved(0x20, 16).line("cmd.prm", 12),
                M.field("op_mod", 0x04, 15, 0).access(Access.IN).line("cmd.prm", 13),
                M.field("cq_umem_valid", 0x08, 31, 31).access(Access.IN).mbz().line("cmd.prm", 14),
                M.reserved(0x41, 2).line("cmd.prm", 14),
                M.field("log_cq_size", 0x08, 28, 24).access(Access.IN).range(0, 22).log2().doc("log2 of the number of CQEs").line("cmd.prm", 15),
                M.reserved(0x48, 22).line("cmd.prm", 15),
                M.field("cq_kind", 0x08, 1, 0).access(Access.IN).line("cmd.prm", 16),
                M.field("eqn", 0x0c, 31, 0).access(Access.IN).variant("union_at_60", "eq", "cq_kind", 0L).line("cmd.prm", 17),
                M.field("cq_period", 0x0c, 31, 20).access(Access.IN).variant("union_at_60", "moderation", "cq_kind", 1L).range(1, 4095).line("cmd.prm", 18),
                M.field("cq_max_count", 0x0c, 15, 0).access(Access.IN).variant("union_at_60", "moderation", "cq_kind", 1L).line("cmd.prm", 19),
                M.reserved(0x80, 64).line("cmd.prm", 20),
                M.at("pas", 0xc0, new MemberType.Array(new MemberType.Bits(64), 0, true)).access(Access.IN)
                        .doc("Physical addresses of the CQ buffer pages").line("cmd.prm", 21)),
                List.of(new Rule("size_fits", new Expr.Binary(Expr.BinaryOp.OR,
                        new Expr.Binary(Expr.BinaryOp.LE, new Expr.FieldValue("log_cq_size"), new Expr.Literal(17, "max_log_cq_sz")),
                        new Expr.Unary(Expr.UnaryOp.NOT, new Expr.Binary(Expr.BinaryOp.EQ,
                                new Expr.Binary(Expr.BinaryOp.MOD, new Expr.FieldValue("uid"), new Expr.Literal(2, "2")), new Expr.Literal(0, "0")))),
                        "even uids need log_cq_size <= 17 (test rule)", at("cmd.prm", 25))),
                "CREATE_CQ command input", "cmd.prm", 9);
    }

    public static StructLayout createCqOut() {
        return struct("create_cq_out", 0x10, List.of(
                M.field("status", 0x00, 31, 24).access(Access.OUT).enumType("cmd_status").line("cmd.prm", 30),
                M.reserved(0x08, 24).line("cmd.prm", 31),
                M.field("syndrome", 0x04, 31, 0).access(Access.OUT).line("cmd.prm", 32),
                M.reserved(0x40, 8).line("cmd.prm", 33),
                M.field("cqn", 0x08, 23, 0).access(Access.OUT).line("cmd.prm", 34),
                M.reserved(0x60, 32).line("cmd.prm", 35)),
                List.of(), "CREATE_CQ command output", "cmd.prm", 29);
    }

    public static EnumLayout cmdStatus() {
        return new EnumLayout(q("cmd_status"), EnumLayout.Kind.ENUM, 8, List.of(
                value("OK", 0x00, "Success", "", "cmd.prm", 40),
                value("INTERNAL_ERR", 0x01, "Internal error", "firmware bug or device in a bad state; check the syndrome", "cmd.prm", 41),
                value("BAD_OP", 0x02, "Bad operation", "opcode not supported by this firmware", "cmd.prm", 42),
                value("BAD_PARAM", 0x03, "Bad parameter", "a field value is out of range; the syndrome names it", "cmd.prm", 43),
                value("EXCEED_LIM", 0x40, "Exceeds a limit", "", "cmd.prm", 44)),
                new Doc("Command delivery status", "PRM 23.1", ""), at("cmd.prm", 39));
    }

    // ---- 5: a union declaration whose alternative a field of the enclosing structure selects ----

    public static StructLayout cntrsA() {
        return struct("cntrs_a", 8, List.of(M.at("frames", 0, new MemberType.Bits(64)).access(Access.RO).line("reg.prm", 3)),
                List.of(), "Counter group A", "reg.prm", 2);
    }

    public static StructLayout cntrsB() {
        return struct("cntrs_b", 8, List.of(
                M.field("level", 0x00, 31, 0).access(Access.RO).range(1, 10).line("reg.prm", 7),
                M.field("drops", 0x04, 31, 0).access(Access.RO).line("reg.prm", 8)), List.of(), "Counter group B", "reg.prm", 6);
    }

    public static StructLayout counterSet() {
        List<Member> alternatives = List.of(
                M.at("grp_a", 0, new MemberType.StructRef(q("cntrs_a"), 64)).access(Access.RO).variant("cntr_set", "grp_a", "", 0L).line("reg.prm", 11).build(),
                M.at("grp_b", 0, new MemberType.StructRef(q("cntrs_b"), 64)).access(Access.RO).variant("cntr_set", "grp_b", "", 1L).line("reg.prm", 12).build(),
                M.reserved(0, 128).line("reg.prm", 13).build());
        return new StructLayout(q("cntr_set"), StructLayout.Kind.UNION, 16, ByteOrder.BIG_ENDIAN, alternatives, List.of(),
                new Doc("Counters, laid out per group", "", ""), at("reg.prm", 10));
    }

    public static StructLayout counterReg() {
        return struct("cntr_reg", 0x14, List.of(
                M.reserved(0, 24).line("reg.prm", 17),
                M.field("grp", 0x00, 7, 0).line("reg.prm", 18),
                M.at("counter_set", 0x20, new MemberType.StructRef(q("cntr_set"), 128)).access(Access.RO).selector("grp").line("reg.prm", 19)),
                List.of(), "Counter register (test layout)", "reg.prm", 16);
    }

    // ---- 6: a device-written entry: ro bit fields, enum, byte array, bit array, one rw field ----

    public static StructLayout miniCqe() {
        return struct("mini_cqe", 16, List.of(
                M.field("opcode", 0x00, 31, 24).access(Access.RO).enumType("send_wqe_opcode").doc("Opcode of the completed WQE").line("cqe.prm", 3),
                M.field("user_index", 0x00, 23, 0).doc("Written by software when it posts (test field)").line("cqe.prm", 4),
                M.at("tag", 0x20, new MemberType.Bytes(4)).access(Access.RO).doc("Opaque tag").line("cqe.prm", 5),
                M.at("nibbles", 0x40, new MemberType.Array(new MemberType.Bits(4), 8, false)).access(Access.RO).line("cqe.prm", 6),
                M.field("wqe_counter", 0x0c, 31, 16).access(Access.RO).line("cqe.prm", 7),
                M.reserved(0x70, 15).line("cqe.prm", 8),
                M.field("owner", 0x0c, 0, 0).access(Access.RO).doc("Ownership parity").line("cqe.prm", 9)),
                List.of(), "A small completion entry the device writes (test layout)", "cqe.prm", 2);
    }

    /** Values too far apart for a lookup table, and one that does not fit a signed int. */
    public static EnumLayout syndromeClass() {
        return new EnumLayout(q("syndrome_class"), EnumLayout.Kind.ENUM, 32, List.of(
                value("NONE", 0x0, "No syndrome"),
                value("QUEUE", 0x10000, "Queue error"),
                value("FATAL", 0xffffffffL, "Fatal error", "reset the device", "cmd.prm", 52)),
                new Doc("Syndrome classes (test enum)", "", ""), at("cmd.prm", 50));
    }

    /** A 64-bit flag set with bits above 31. */
    public static EnumLayout wideCaps() {
        return new EnumLayout(q("wide_caps"), EnumLayout.Kind.FLAGS, 64, List.of(
                value("LOW", 3, "A low bit"),
                value("HIGH", 40, "A bit in the upper dword")),
                new Doc("Wide capability flags (test flag set)", "", ""), at("cmd.prm", 55));
    }

    /** Every representative fixture in one model. */
    public static LayoutModel model() {
        return new LayoutModel(
                sorted(List.of(createCqIn(), createCqOut(), sampleEntry(), wqeCtrlSeg(), wqeDataSeg(), wqeEthSeg(),
                        counterReg(), counterSet(), cntrsA(), cntrsB(), miniCqe())),
                List.of(cmdStatus(), completionMode(), csFlags(), sendWqeOpcode(), syndromeClass(), wideCaps()),
                List.of(new Constant(q("send_wqe_bb"), 64, new Doc("Send WQE basic block size in bytes", "", ""), at("wqe.prm", 1))));
    }
}
