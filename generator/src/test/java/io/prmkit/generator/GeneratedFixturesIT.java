package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated accessors of the hand-built fixtures, compiled in memory (java.base only, -Werror)
 * and exercised against raw bytes laid out by hand from the PRM tables.
 */
class GeneratedFixturesIT {
    static Loaded gen;

    @BeforeAll
    static void compile() {
        gen = Loaded.compile(new AccessorGenerator(new GeneratorOptions("io.prmkit.gen")).generate(Fixtures.model()), "io.prmkit.gen.mlx5");
    }

    private static Object enumConstant(String cls, String name) {
        return gen.constant(cls, name);
    }

    @Test
    void controlSegmentMatchesTheKernelsEncoding() {
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        gen.call("WqeCtrlSeg", "opcode$set", s, enumConstant("SendWqeOpcode", "SEND"));
        gen.call("WqeCtrlSeg", "wqe_index$set", s, 0x1234);
        gen.call("WqeCtrlSeg", "qpn$set", s, 0xabcdef);
        gen.call("WqeCtrlSeg", "ds$set", s, 4);
        gen.call("WqeCtrlSeg", "ce$set", s, enumConstant("CompletionMode", "CQE_ALWAYS"));
        gen.call("WqeCtrlSeg", "se$set", s, true);
        gen.call("WqeCtrlSeg", "imm$set", s, 0x80000001);
        // opmod_idx_opcode = be32(0x0012340a); qpn_ds = be32(sqn << 8 | ds); fm_ce_se = CQ_UPDATE | SOLICITED = 0x0a
        assertArrayEquals(new byte[] {0x00, 0x12, 0x34, 0x0a, (byte) 0xab, (byte) 0xcd, (byte) 0xef, 0x04, 0, 0, 0, 0x0a, (byte) 0x80, 0, 0, 1}, b);
        assertEquals(0x1234, gen.call("WqeCtrlSeg", "wqe_index", s));
        assertEquals(enumConstant("SendWqeOpcode", "SEND"), gen.call("WqeCtrlSeg", "opcode$enum", s));
        assertEquals(0x80000001, gen.call("WqeCtrlSeg", "imm", s));
        assertEquals(true, gen.call("WqeCtrlSeg", "se", s));
        assertEquals(List.of(), gen.call("WqeCtrlSeg", "validate", s));
        assertEquals(16L, gen.constant("WqeCtrlSeg", "SIZE"));
        assertEquals(58L, gen.constant("WqeCtrlSeg", "ds$BIT_OFFSET"));
        assertEquals(6L, gen.constant("WqeCtrlSeg", "ds$BIT_WIDTH"));
    }

    @Test
    void writerBuildsTheWholeSegmentLikeTheSetters() {
        byte[] viaSetters = new byte[32];
        Object s = Loaded.segment(viaSetters);
        gen.call("WqeCtrlSeg", "opcode$set", s, 16L, enumConstant("SendWqeOpcode", "SEND"));
        gen.call("WqeCtrlSeg", "wqe_index$set", s, 16L, 0xbeef);
        gen.call("WqeCtrlSeg", "qpn$set", s, 16L, 0x123456);
        gen.call("WqeCtrlSeg", "ds$set", s, 16L, 4);
        gen.call("WqeCtrlSeg", "ce$set", s, 16L, 2);
        gen.call("WqeCtrlSeg", "se$set", s, 16L, true);
        gen.call("WqeCtrlSeg", "imm$set", s, 16L, 0xcafef00d);

        byte[] viaWriter = new byte[32];
        java.util.Arrays.fill(viaWriter, (byte) 0xff); // the writer overwrites every byte, reserved bits included
        java.util.Arrays.fill(viaWriter, 0, 16, (byte) 0);
        Object w = gen.call("WqeCtrlSeg", "writer", Loaded.segment(viaWriter), 16L);
        w = Loaded.invoke(w, "opcode", enumConstant("SendWqeOpcode", "SEND"));
        w = Loaded.invoke(w, "wqe_index", 0xbeef);
        w = Loaded.invoke(w, "qpn", 0x123456);
        w = Loaded.invoke(w, "ds", 4);
        w = Loaded.invoke(w, "ce", enumConstant("CompletionMode", "CQE_ALWAYS"));
        w = Loaded.invoke(w, "se", true);
        w = Loaded.invoke(w, "imm", 0xcafef00d);
        Loaded.invoke(w, "write");
        assertArrayEquals(viaSetters, viaWriter);

        Object w2 = gen.call("WqeCtrlSeg", "writer", Loaded.segment(viaWriter));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Loaded.invoke(w2, "ds", 64));
        assertEquals("wqe_ctrl_seg.ds: value 64 (0x40) does not fit in 6 bits (0..63)", e.getMessage());

        byte[] data = new byte[16];
        Object dw = gen.call("WqeDataSeg", "writer", Loaded.segment(data));
        Loaded.invoke(Loaded.invoke(Loaded.invoke(dw, "byte_count", 0x5dc), "lkey", 7), "addr", 0x1122334455667788L);
        Loaded.invoke(dw, "write");
        assertArrayEquals(new byte[] {0, 0, 5, (byte) 0xdc, 0, 0, 0, 7, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88}, data);
    }

    /** The control segment of entry {@code i}: every field a different value, some entries leave fields unset. */
    private static Object ctrlEntry(Object w, int i) {
        w = Loaded.invoke(w, "wqe_index", 0x100 + i);
        w = Loaded.invoke(w, "qpn", 0xabc000 + i);
        w = Loaded.invoke(w, "ds", 1 + i);
        if (i % 2 == 0) { // odd entries leave these unset: a reused writer must not carry them over
            w = Loaded.invoke(w, "opcode", enumConstant("SendWqeOpcode", "SEND"));
            w = Loaded.invoke(w, "ce", enumConstant("CompletionMode", "CQE_ALWAYS"));
            w = Loaded.invoke(w, "se", true);
            w = Loaded.invoke(w, "imm", 0xcafe0000 | i);
        }
        return w;
    }

    @Test
    void aReusedWriterClearsBetweenEntriesAndWritesWhatAFreshOneWrites() {
        int entries = 5;
        byte[] viaFresh = new byte[16 * entries + 8];
        byte[] viaReused = new byte[16 * entries + 8];
        java.util.Arrays.fill(viaFresh, (byte) 0xa5); // every byte of each entry must be overwritten
        java.util.Arrays.fill(viaReused, (byte) 0xa5);
        Object fresh = Loaded.segment(viaFresh);
        Object reused = Loaded.segment(viaReused);
        Object w = gen.call("WqeCtrlSeg", "writer");
        for (int i = entries - 1; i >= 0; i--) { // backwards, so an entry written later lies before one written earlier
            long at = 8L + 16L * i;
            Loaded.invoke(ctrlEntry(gen.call("WqeCtrlSeg", "writer", fresh, at), i), "write");
            Object bound = Loaded.invoke(w, "at", reused, at);
            assertTrue(bound == w, "at() returns the writer itself");
            Loaded.invoke(ctrlEntry(bound, i), "write");
        }
        assertArrayEquals(viaFresh, viaReused);
        for (int j = 0; j < 8; j++) assertEquals((byte) 0xa5, viaReused[j], "byte " + j + " before the first entry is untouched");
        Object seg = Loaded.segment(viaReused);
        assertEquals(0, gen.call("WqeCtrlSeg", "imm", seg, 8L + 16L), "entry 1 leaves imm unset: 0, not entry 2's");
        assertEquals(false, gen.call("WqeCtrlSeg", "se", seg, 8L + 16L));
        assertEquals(0xcafe0002, gen.call("WqeCtrlSeg", "imm", seg, 8L + 32L));
        assertEquals(0xabc003, gen.call("WqeCtrlSeg", "qpn", seg, 8L + 48L));

        // the device writer is re-pointable the same way; binding alone writes nothing
        byte[] cqes = new byte[32];
        Object c = Loaded.segment(cqes);
        Object dw = gen.call("MiniCqe$Device", "writer");
        Loaded.invoke(Loaded.invoke(Loaded.invoke(dw, "at", c, 0L), "wqe_counter", 0x77), "write");
        Loaded.invoke(Loaded.invoke(dw, "at", c, 16L), "owner", true);
        assertEquals(0, cqes[31], "nothing stored before write()");
        Loaded.invoke(dw, "write");
        assertEquals(0x77, gen.call("MiniCqe", "wqe_counter", c));
        assertEquals(0, gen.call("MiniCqe", "wqe_counter", c, 16L), "the second entry does not inherit wqe_counter");
        assertEquals(true, gen.call("MiniCqe", "owner", c, 16L));
    }

    @Test
    void aWriterChecksBoundsAndBindingBeforeItStores() {
        Object unbound = gen.call("WqeCtrlSeg", "writer");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Loaded.invoke(Loaded.invoke(unbound, "ds", 1), "write"));
        assertEquals("wqe_ctrl_seg writer: not bound to a segment (call at(s, offset) first)", e.getMessage());
        byte[] b = new byte[24];
        Object w = Loaded.invoke(gen.call("WqeCtrlSeg", "writer"), "at", Loaded.segment(b), 16L);
        assertThrows(IndexOutOfBoundsException.class, () -> Loaded.invoke(Loaded.invoke(w, "ds", 1), "write"));
        assertArrayEquals(new byte[24], b, "a structure that does not fit is not written at all");
        Object neg = Loaded.invoke(gen.call("WqeCtrlSeg", "writer"), "at", Loaded.segment(b), -8L);
        assertThrows(IndexOutOfBoundsException.class, () -> Loaded.invoke(Loaded.invoke(neg, "ds", 1), "write"));
        assertArrayEquals(new byte[24], b, "nor one at a negative offset");
    }

    @Test
    void writersExistOnlyForSmallStructuresWithSettableFields() {
        assertTrue(gen.hasMethod("WqeEthSeg", "writer"));
        assertFalse(gen.hasMethod("FlowSample", "writer"), "80 bytes: no writer");
        assertFalse(gen.hasMethod("CreateCqOut", "writer"), "only device-written fields: no writer");
    }

    @Test
    void offsetFormsAddressAStructureInsideALargerSegment() {
        byte[] b = new byte[64 + 16];
        Object s = Loaded.segment(b);
        gen.call("WqeCtrlSeg", "qpn$set", s, 64L, 0x123456);
        gen.call("WqeCtrlSeg", "ds$setUnchecked", s, 64L, 3);
        for (int i = 0; i < 64; i++) assertEquals(0, b[i]);
        assertEquals(0x12, b[68]);
        assertEquals(0x56, b[70]);
        assertEquals(3, b[71]);
        assertEquals(0x123456, gen.call("WqeCtrlSeg", "qpn", s, 64L));
        gen.call("WqeCtrlSeg", "clear", s, 64L);
        assertArrayEquals(new byte[80], b);
    }

    @Test
    void checkedSettersRejectValuesThatDoNotFitAndWriteNothing() {
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gen.call("WqeCtrlSeg", "ds$set", s, 64));
        assertEquals("wqe_ctrl_seg.ds: value 64 (0x40) does not fit in 6 bits (0..63)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> gen.call("WqeCtrlSeg", "qpn$set", s, -1));
        assertTrue(e.getMessage().startsWith("wqe_ctrl_seg.qpn: value -1 "), e.getMessage());
        assertArrayEquals(new byte[16], b);
        gen.call("WqeCtrlSeg", "ds$setUnchecked", s, 0x7f);
        assertEquals(0x3f, gen.call("WqeCtrlSeg", "ds", s));
        assertEquals(0, b[6]);
        assertEquals(0x3f, b[7]);
    }

    @Test
    void reservedAndDeviceWrittenFieldsHaveNoSetters() {
        assertFalse(gen.hasMethod("WqeCtrlSeg", "reserved_at_38"));
        assertFalse(gen.hasMethod("WqeCtrlSeg", "reserved_at_38$set"));
        assertFalse(gen.hasMethod("WqeCtrlSeg", "reserved_at_38$setUnchecked"));
        assertTrue(gen.hasMethod("CreateCqOut", "status"));
        assertTrue(gen.hasMethod("CreateCqOut", "status$enum"));
        assertFalse(gen.hasMethod("CreateCqOut", "status$set"));
        assertFalse(gen.hasMethod("CreateCqOut", "syndrome$setUnchecked"));
        assertTrue(gen.hasMethod("CreateCqIn", "log_cq_size$set"));
    }

    @Test
    void statusDecodesToNameMeaningAndCauseInOneCall() {
        assertEquals("BAD_PARAM (0x3): Bad parameter; a field value is out of range; the syndrome names it", gen.call("CmdStatus", "describe", 3L));
        assertEquals("unknown (0x77)", gen.call("CmdStatus", "describe", 0x77L));
        assertNull(gen.call("CmdStatus", "of", 0x77L));
        assertEquals(enumConstant("CmdStatus", "EXCEED_LIM"), gen.call("CmdStatus", "of", 0x40L));
        assertEquals(0x40, gen.constant("CmdStatus", "EXCEED_LIM$VALUE"));
        byte[] b = new byte[16];
        b[0] = 0x03;
        assertEquals(enumConstant("CmdStatus", "BAD_PARAM"), gen.call("CreateCqOut", "status$enum", Loaded.segment(b)));
        b[0] = 0x55;
        assertNull(gen.call("CreateCqOut", "status$enum", Loaded.segment(b)));
        assertEquals(0x55, gen.call("CreateCqOut", "status", Loaded.segment(b)));
    }

    @Test
    void sparseEnumsAndWideFlagsLookUpBySearch() {
        assertEquals(enumConstant("SyndromeClass", "FATAL"), gen.call("SyndromeClass", "of", 0xffffffffL));
        assertEquals(enumConstant("SyndromeClass", "QUEUE"), gen.call("SyndromeClass", "of", 0x10000L));
        assertNull(gen.call("SyndromeClass", "of", 0xfffffffeL));
        assertNull(gen.call("SyndromeClass", "of", -1L));
        assertEquals(-1, gen.constant("SyndromeClass", "FATAL$VALUE"), "an int constant holds the raw 32 bits");
        assertEquals("FATAL (0xffffffff): Fatal error; reset the device", gen.call("SyndromeClass", "describe", 0xffffffffL));
        assertEquals(1L << 40, gen.constant("WideCaps", "HIGH$MASK"));
        assertEquals("LOW|HIGH|0x4", gen.call("WideCaps", "describe", (1L << 40) | 8L | 4L));
    }

    @Test
    void flagSetsDescribeSetBits() {
        assertEquals("L3_CSUM|L4_CSUM|0x1", gen.call("CsFlags", "describe", 0xc1L));
        assertNull(gen.call("CsFlags", "describe", 0L));
        assertEquals(0x40, gen.constant("CsFlags", "L3_CSUM$MASK"));
        assertEquals(0xc0L, gen.call("CsFlags", "maskOf", gen.call("CsFlags", "of", 0xc0L)));
    }

    @Test
    void wideFieldsByteArraysNestedStructsAndArrays() {
        byte[] b = new byte[0x50];
        Object s = Loaded.segment(b);
        gen.call("FlowSample", "packet_count$set", s, 0x0102030405060708L);
        gen.call("FlowSample", "timestamp$set", s, 0xa1a2a3a4a5a6L);
        gen.call("FlowSample", "dmac$copyFrom", s, new byte[] {1, 2, 3, 4, 5, 6});
        gen.call("FlowSample", "prio$set", s, 1L, 0xf);
        gen.call("FlowSample", "words$set", s, 1L, 0xbeef);
        long more1 = (Long) gen.call("FlowSample", "more$offset", 1L);
        assertEquals(0x40L, more1);
        gen.call("WqeDataSeg", "addr$set", s, more1, 0x1122334455667788L);
        gen.call("WqeDataSeg", "lkey$set", s, (Long) gen.constant("FlowSample", "data$BYTE_OFFSET"), 0x7);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, (byte) 0xa1, (byte) 0xa2, (byte) 0xa3, (byte) 0xa4, (byte) 0xa5, (byte) 0xa6, 0, 0}, java.util.Arrays.copyOf(b, 16));
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6}, java.util.Arrays.copyOfRange(b, 0x10, 0x16));
        assertEquals(0x0f, b[0x18]);
        assertEquals((byte) 0xbe, b[0x1e]);
        assertEquals((byte) 0xef, b[0x1f]);
        assertEquals(7, b[0x27]);
        assertArrayEquals(new byte[] {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88}, java.util.Arrays.copyOfRange(b, 0x48, 0x50));
        assertEquals(0xa1a2a3a4a5a6L, gen.call("FlowSample", "timestamp", s));
        assertEquals(0xf, gen.call("FlowSample", "prio$elem", s, 1L));
        byte[] mac = new byte[6];
        gen.call("FlowSample", "dmac$copyTo", s, mac);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6}, mac);
        assertThrows(IllegalArgumentException.class, () -> gen.call("FlowSample", "dmac$copyFrom", s, new byte[7]));
        assertThrows(IllegalArgumentException.class, () -> gen.call("FlowSample", "dmac$copyTo", s, new byte[5]));
        assertThrows(IndexOutOfBoundsException.class, () -> gen.call("FlowSample", "prio$elem", s, 8L));
        assertThrows(IndexOutOfBoundsException.class, () -> gen.call("FlowSample", "more$elem", s, 2L));
        assertThrows(IllegalArgumentException.class, () -> gen.call("FlowSample", "timestamp$set", s, 1L << 48));
    }

    @Test
    void flexibleArrayIsBoundedOnlyByTheSegment() {
        byte[] b = new byte[0x18 + 3 * 8];
        Object s = Loaded.segment(b);
        gen.call("CreateCqIn", "pas$set", s, 2L, 0xfedcba9876543210L);
        assertEquals(0xfedcba9876543210L, gen.call("CreateCqIn", "pas$elem", s, 2L));
        assertEquals((byte) 0xfe, b[0x28]);
        assertThrows(IndexOutOfBoundsException.class, () -> gen.call("CreateCqIn", "pas$elem", s, 3L));
        assertEquals(0x18L, gen.constant("CreateCqIn", "SIZE"));
        String dump = (String) gen.call("CreateCqIn", "dump", s);
        assertTrue(dump.contains("bytes 0x28..0x2f     pas[2] = 0xfedcba9876543210"), dump);
    }

    @Test
    void validateReportsRangesRulesReservedBitsAndCapabilities() {
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        gen.call("WqeCtrlSeg", "ds$set", s, 1);
        assertEquals(List.of(), gen.call("WqeCtrlSeg", "validate", s));
        b[7] |= 0x80;
        gen.call("WqeCtrlSeg", "ds$set", s, 0);
        assertEquals(List.of(
                "wqe_ctrl_seg.reserved_at_38 (dword 0x04 [7:6]): must be zero, is 0x2",
                "wqe_ctrl_seg.ds (dword 0x04 [5:0]): 0 is out of range 1..63",
                "wqe_ctrl_seg: rule ds_not_zero violated: a WQE holds at least its control segment (ds >= 1) [(ds != 0)]"),
                gen.call("WqeCtrlSeg", "validate", s));

        b[7] &= 0x3f;
        gen.call("WqeCtrlSeg", "ds$set", s, 1);
        b[11] = 1; // bit 0x5f, reserved
        assertEquals(List.of(
                "wqe_ctrl_seg.reserved_at_5f (dword 0x08 [0]): must be zero, is 0x1",
                "wqe_ctrl_seg: rule low_bit_clear violated: a rule may read reserved space (test rule) [(reserved_at_5f == 0)]"),
                gen.call("WqeCtrlSeg", "validate", s));

        byte[] e = new byte[16];
        Object es = Loaded.segment(e);
        gen.call("WqeEthSeg", "swp_inner_l3_offset$set", es, 9);
        Predicate<String> noCaps = c -> false;
        Predicate<String> swp = "cmd_hca_cap.swp"::equals;
        assertEquals(List.of("wqe_eth_seg.swp_inner_l3_offset (dword 0x00 [7:0]): non-zero, but capability cmd_hca_cap.swp is not present"),
                gen.call("WqeEthSeg", "validate", es, noCaps));
        assertEquals(List.of(), gen.call("WqeEthSeg", "validate", es, swp));
        assertEquals(List.of(), gen.call("WqeEthSeg", "validate", es));
    }

    @Test
    void validateChecksOnlyTheSelectedAlternativeOfATaggedUnion() {
        byte[] b = new byte[0x18];
        Object s = Loaded.segment(b);
        gen.call("CreateCqIn", "eqn$set", s, 0);
        assertEquals(List.of(), gen.call("CreateCqIn", "validate", s)); // cq_kind 0: eqn chosen; cq_period (range 1..) not checked
        gen.call("CreateCqIn", "cq_kind$set", s, 1);
        assertEquals(List.of("create_cq_in.cq_period (dword 0x0c [31:20]): 0 is out of range 1..4095"), gen.call("CreateCqIn", "validate", s));
        gen.call("CreateCqIn", "uid$set", s, 4);
        gen.call("CreateCqIn", "log_cq_size$set", s, 18);
        gen.call("CreateCqIn", "cq_period$set", s, 16);
        assertEquals(List.of("create_cq_in: rule size_fits violated: even uids need log_cq_size <= 17 (test rule)"
                + " [((log_cq_size <= max_log_cq_sz) || !((uid % 2) == 0))]"), gen.call("CreateCqIn", "validate", s));
        gen.call("CreateCqIn", "uid$set", s, 5);
        assertEquals(List.of(), gen.call("CreateCqIn", "validate", s));
    }

    @Test
    void dumpShowsNonZeroFieldsWithEnumNamesAndFlagsReservedBits() {
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        gen.call("WqeCtrlSeg", "opcode$set", s, 0x0a);
        gen.call("WqeCtrlSeg", "ds$set", s, 2);
        b[9] = 1;
        assertEquals("""
                wqe_ctrl_seg (16 bytes)
                  dword 0x00 [7:0]     opcode = 0xa SEND
                  dword 0x04 [5:0]     ds = 0x2
                  dword 0x08 [23:8]    reserved_at_48 = 0x100  !! reserved bits set
                """, gen.call("WqeCtrlSeg", "dump", s));
        assertEquals("wqe_ctrl_seg (16 bytes)\n  (all zero)\n", gen.call("WqeCtrlSeg", "dump", Loaded.segment(new byte[16])));
    }

    @Test
    void aUnionDeclarationIsDecodedAndCheckedByTheSelectorOfItsEnclosingStructure() {
        byte[] b = new byte[0x14];
        Object s = Loaded.segment(b);
        b[3] = 0; // grp 0: counter group A (frames, a 64-bit counter)
        b[4 + 7] = 42;
        assertEquals("""
                cntr_reg (20 bytes)
                  bytes 0x04..0x13     counter_set : mlx5.cntr_set
                    bytes 0x00..0x07     grp_a : mlx5.cntrs_a  (cntr_set: grp_a)
                      bytes 0x00..0x07     frames = 0x2a
                """, gen.call("CntrReg", "dump", s));
        // as group B, level (range 1..10) would be 0: only the selected alternative is checked, and the
        // union's reserved padding, which aliases the alternatives, is not a must-be-zero violation
        assertEquals(List.of(), gen.call("CntrReg", "validate", s));
        b[3] = 1;
        assertEquals(List.of("cntr_reg.counter_set.grp_b.level (dword 0x00 [31:0]): 0 is out of range 1..10"), gen.call("CntrReg", "validate", s));
        String dump = (String) gen.call("CntrReg", "dump", s);
        assertTrue(dump.contains("grp_b : mlx5.cntrs_b  (cntr_set: grp_b)\n      dword 0x04 [31:0]    drops = 0x2a\n"), dump);
        assertFalse(dump.contains("grp_a"), dump);
    }

    /** A capability page has hundreds of fields; their descriptors must not overflow one method. */
    @Test
    void structuresWithThousandsOfFieldsCompile() throws ReflectiveOperationException {
        List<Fixtures.M> bits = new java.util.ArrayList<>();
        for (int i = 0; i < 1200; i++) bits.add(Fixtures.M.at("cap_" + i, i, new io.prmkit.dsl.ir.MemberType.Bits(1)).access(io.prmkit.dsl.ir.Access.RO));
        io.prmkit.dsl.ir.LayoutModel model = new io.prmkit.dsl.ir.LayoutModel(
                List.of(Fixtures.struct("huge_cap", 150, bits, List.of(), "", "caps.prm", 1)), List.of(), List.of());
        Loaded huge = Loaded.compile(new AccessorGenerator(GeneratorOptions.defaults()).generate(model), "mlx5");
        Object layout = huge.call("HugeCap", "layout");
        assertEquals(1200, ((List<?>) layout.getClass().getMethod("fields").invoke(layout)).size());
        byte[] b = new byte[150];
        b[149] = 1;
        assertEquals(true, huge.call("HugeCap", "cap_1199", Loaded.segment(b)));
        assertEquals(false, huge.call("HugeCap", "cap_1198", Loaded.segment(b)));
    }

    @Test
    void layoutMetadataDescribesEveryMember() throws ReflectiveOperationException {
        Object layout = gen.call("WqeCtrlSeg", "layout");
        Class<?> struct = layout.getClass();
        assertEquals("mlx5.wqe_ctrl_seg", struct.getMethod("name").invoke(layout));
        List<?> fields = (List<?>) struct.getMethod("fields").invoke(layout);
        assertEquals(Fixtures.wqeCtrlSeg().members().size(), fields.size());
        Object opcode = fields.get(2);
        Class<?> field = opcode.getClass();
        assertEquals("opcode", field.getMethod("name").invoke(opcode));
        assertEquals(24L, field.getMethod("bitOffset").invoke(opcode));
        assertEquals(8L, field.getMethod("bitWidth").invoke(opcode));
        assertEquals("dword 0x00 [7:0]", field.getMethod("position").invoke(opcode));
        assertEquals("mlx5.send_wqe_opcode", field.getMethod("enumType").invoke(opcode));
        assertEquals("wqe.prm:19", field.getMethod("source").invoke(opcode));
        assertEquals("SEND", field.getMethod("nameOf", long.class).invoke(opcode, 0x0aL));
        assertEquals(true, fields.get(4).getClass().getMethod("reserved").invoke(fields.get(4)));
        byte[] b = new byte[16];
        b[3] = 0x25;
        assertEquals(0x25L, struct.getMethod("get", Loaded.SEGMENT, long.class, field).invoke(layout, Loaded.segment(b), 0L, opcode));
    }

    // ---- device-side setters --------------------------------------------------------------

    private static boolean classExists(String binaryName) {
        try {
            gen.cls(binaryName);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    @Test
    void readOnlyFieldsHaveSettersOnlyInTheDeviceClass() {
        for (String f : List.of("opcode", "wqe_counter", "owner", "nibbles")) {
            assertFalse(gen.hasMethod("MiniCqe", f + "$set"), f + "$set must not be offered to the driver");
            assertFalse(gen.hasMethod("MiniCqe", f + "$setUnchecked"), f);
            assertTrue(gen.hasMethod("MiniCqe$Device", f + "$set"), f);
            assertTrue(gen.hasMethod("MiniCqe$Device", f + "$setUnchecked"), f);
        }
        assertFalse(gen.hasMethod("MiniCqe", "tag$copyFrom"));
        assertTrue(gen.hasMethod("MiniCqe$Device", "tag$copyFrom"));
        // the rw field keeps its ordinary setter and gets none in Device
        assertTrue(gen.hasMethod("MiniCqe", "user_index$set"));
        assertFalse(gen.hasMethod("MiniCqe$Device", "user_index$set"));
        assertTrue(gen.hasMethod("CreateCqOut$Device", "cqn$set"));
        assertFalse(classExists("WqeCtrlSeg$Device"), "a structure without ro/out fields has no Device class");
        assertFalse(classExists("CreateCqIn$Device"));
    }

    @Test
    void deviceSettersWriteWhatTheGettersRead() {
        byte[] b = new byte[32];
        Object s = Loaded.segment(b);
        gen.call("MiniCqe$Device", "opcode$set", s, 16L, enumConstant("SendWqeOpcode", "LSO"));
        gen.call("MiniCqe$Device", "wqe_counter$set", s, 16L, 0xbeef);
        gen.call("MiniCqe$Device", "owner$set", s, 16L, true);
        gen.call("MiniCqe$Device", "nibbles$set", s, 16L, 1L, 0xa);
        gen.call("MiniCqe$Device", "tag$copyFrom", s, 16L, new byte[] {1, 2, 3, 4});
        gen.call("MiniCqe", "user_index$set", s, 16L, 0x123456);
        assertArrayEquals(new byte[] {0x0e, 0x12, 0x34, 0x56, 1, 2, 3, 4, 0x0a, 0, 0, 0, (byte) 0xbe, (byte) 0xef, 0, 1},
                java.util.Arrays.copyOfRange(b, 16, 32));
        assertEquals(enumConstant("SendWqeOpcode", "LSO"), gen.call("MiniCqe", "opcode$enum", s, 16L));
        assertEquals(0xbeef, gen.call("MiniCqe", "wqe_counter", s, 16L));
        assertEquals(true, gen.call("MiniCqe", "owner", s, 16L));
        assertEquals(0xa, gen.call("MiniCqe", "nibbles$elem", s, 16L, 1L));
        assertEquals(0x123456, gen.call("MiniCqe", "user_index", s, 16L));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gen.call("MiniCqe$Device", "wqe_counter$set", s, 0x10000));
        assertTrue(e.getMessage().contains("mini_cqe.wqe_counter"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> gen.call("MiniCqe$Device", "nibbles$set", s, 0L, 0x10));
        gen.call("MiniCqe$Device", "wqe_counter$setUnchecked", s, 0x1abcd);
        assertEquals(0xabcd, gen.call("MiniCqe", "wqe_counter", s));

        byte[] out = new byte[16];
        Object o = Loaded.segment(out);
        gen.call("CreateCqOut$Device", "status$set", o, enumConstant("CmdStatus", "BAD_PARAM"));
        gen.call("CreateCqOut$Device", "syndrome$set", o, 0x1234abcd);
        gen.call("CreateCqOut$Device", "cqn$set", o, 0x123);
        assertArrayEquals(new byte[] {3, 0, 0, 0, 0x12, 0x34, (byte) 0xab, (byte) 0xcd, 0, 0, 0x01, 0x23, 0, 0, 0, 0}, out);
        assertEquals(enumConstant("CmdStatus", "BAD_PARAM"), gen.call("CreateCqOut", "status$enum", o));
        assertThrows(IllegalArgumentException.class, () -> gen.call("CreateCqOut$Device", "cqn$set", o, 0x1000000));
    }

    @Test
    void deviceWriterSetsEveryBitFieldAndStoresEveryByte() {
        byte[] viaSetters = new byte[16];
        Object s = Loaded.segment(viaSetters);
        gen.call("MiniCqe$Device", "opcode$set", s, enumConstant("SendWqeOpcode", "SEND"));
        gen.call("MiniCqe", "user_index$set", s, 0xabcdef);
        gen.call("MiniCqe$Device", "wqe_counter$set", s, 0x77);
        gen.call("MiniCqe$Device", "owner$set", s, true);

        byte[] viaWriter = new byte[16];
        java.util.Arrays.fill(viaWriter, (byte) 0xff); // reserved bits, the byte array and the bit array become 0
        Object w = gen.call("MiniCqe$Device", "writer", Loaded.segment(viaWriter));
        w = Loaded.invoke(w, "opcode", enumConstant("SendWqeOpcode", "SEND"));
        w = Loaded.invoke(w, "user_index", 0xabcdef);
        w = Loaded.invoke(w, "wqe_counter", 0x77);
        w = Loaded.invoke(w, "owner", true);
        Loaded.invoke(w, "write");
        assertArrayEquals(viaSetters, viaWriter);
        Object bad = gen.call("MiniCqe$Device", "writer", Loaded.segment(viaWriter), 0L);
        assertThrows(IllegalArgumentException.class, () -> Loaded.invoke(bad, "wqe_counter", 0x10000));

        // the driver's writer of the same structure sets only what software writes
        Object driver = gen.call("MiniCqe", "writer", Loaded.segment(new byte[16]));
        assertThrows(AssertionError.class, () -> Loaded.invoke(driver, "owner", true));
        Loaded.invoke(Loaded.invoke(driver, "user_index", 1), "write");

        byte[] out = new byte[16];
        Object ow = gen.call("CreateCqOut$Device", "writer", Loaded.segment(out), 0L);
        Loaded.invoke(Loaded.invoke(Loaded.invoke(ow, "status", enumConstant("CmdStatus", "EXCEED_LIM")), "cqn", 0xabcdef), "write");
        assertEquals(0x40, out[0]);
        assertEquals(0xabcdef, gen.call("CreateCqOut", "cqn", Loaded.segment(out)));
    }

    /** The API level the generator writes into every class is the one the prmkit-layout jar beside it has. */
    @Test
    void generatedCodeNeedsTheApiLevelOfThePrmLayoutBuiltWithIt() throws ReflectiveOperationException {
        assertEquals(GeneratorContext.LAYOUT_API, Class.forName("io.prmkit.layout.PrmLayout").getField("API").getInt(null));
    }

    /**
     * Code generated for a newer prmkit-layout than the one at run time fails when its class initialises,
     * with an error naming the class and both levels, not with a NoSuchMethodError at some later call.
     */
    @Test
    void codeGeneratedForANewerPrmLayoutFailsWhenItsClassInitialises() {
        String check = "PrmLayout.requireApi(" + GeneratorContext.LAYOUT_API + ");";
        List<GeneratedFile> newer = new AccessorGenerator(new GeneratorOptions("io.prmkit.gen")).generate(Fixtures.model()).stream()
                .map(f -> new GeneratedFile(f.relativePath(), f.content().replace(check, "PrmLayout.requireApi(" + (GeneratorContext.LAYOUT_API + 1) + ");")))
                .toList();
        assertTrue(newer.stream().anyMatch(f -> f.relativePath().endsWith("/WqeCtrlSeg.java") && f.content().contains("requireApi(" + (GeneratorContext.LAYOUT_API + 1))));
        Loaded loaded = Loaded.compile(newer, "io.prmkit.gen.mlx5");
        Throwable e = assertThrows(Throwable.class, () -> loaded.call("WqeCtrlSeg", "qpn", Loaded.segment(new byte[16])));
        while (e.getCause() != null && !(e instanceof LinkageError)) e = e.getCause();
        assertTrue(e instanceof LinkageError, e.toString());
        assertEquals("io.prmkit.gen.mlx5.WqeCtrlSeg was generated for prmkit-layout API level " + (GeneratorContext.LAYOUT_API + 1)
                + ", and the io.prmkit.layout.PrmLayout it runs with has level " + GeneratorContext.LAYOUT_API
                + ": put the prmkit-layout of the prmkit that generated it (or a newer one) on the class path", e.getMessage());
    }

    /** The datapath's first accessor call must not build the layout table nor load the enums it names. */
    @Test
    void accessorsDoNotLoadTheLayoutMetadata() {
        Loaded fresh = Loaded.compile(new AccessorGenerator(new GeneratorOptions("io.prmkit.gen")).generate(Fixtures.model()), "io.prmkit.gen.mlx5");
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        fresh.call("WqeCtrlSeg", "qpn$set", s, 0x123);
        assertEquals(0x123, fresh.call("WqeCtrlSeg", "qpn", s));
        Loaded.invoke(Loaded.invoke(fresh.call("WqeCtrlSeg", "writer", s), "ds", 2), "write");
        fresh.call("MiniCqe$Device", "wqe_counter$set", s, 7);
        java.util.Set<String> loaded = fresh.defined();
        String p = "io.prmkit.gen.mlx5.";
        assertTrue(loaded.contains(p + "WqeCtrlSeg"), loaded.toString());
        // Not even loaded, so never initialized: the holder whose initializer builds the field table (and runs
        // the enums' initializers through the nameOf references), and the field descriptors themselves. (The
        // verifier may load, but not initialize, enum classes named in signatures.)
        assertFalse(loaded.contains(p + "WqeCtrlSeg$Meta"), loaded.toString());
        assertFalse(loaded.contains(p + "MiniCqe$Meta"), loaded.toString());

        Object layout = fresh.call("WqeCtrlSeg", "layout");
        assertTrue(fresh.defined().contains(p + "WqeCtrlSeg$Meta"));
        assertEquals(layout, fresh.call("WqeCtrlSeg", "layout"), "built once");
    }

    /** Rules shift like the spec says (unsigned 64-bit, shifting out gives 0), not like Java (count masked to 6 bits). */
    @Test
    void ruleShiftsByTheWordSizeOrMoreGiveZero() {
        io.prmkit.dsl.ir.Expr n = new io.prmkit.dsl.ir.Expr.FieldValue("n");
        io.prmkit.dsl.ir.Expr v = new io.prmkit.dsl.ir.Expr.FieldValue("v");
        io.prmkit.dsl.ir.Expr zero = new io.prmkit.dsl.ir.Expr.Literal(0, "0");
        io.prmkit.dsl.ir.Expr one = new io.prmkit.dsl.ir.Expr.Literal(1, "1");
        java.util.function.BiFunction<io.prmkit.dsl.ir.Expr.BinaryOp, io.prmkit.dsl.ir.Expr[], io.prmkit.dsl.ir.Expr> bin =
                (op, e) -> new io.prmkit.dsl.ir.Expr.Binary(op, e[0], e[1]);
        List<io.prmkit.dsl.ir.Rule> rules = List.of(
                new io.prmkit.dsl.ir.Rule("shl_out", bin.apply(io.prmkit.dsl.ir.Expr.BinaryOp.EQ, new io.prmkit.dsl.ir.Expr[] {
                        bin.apply(io.prmkit.dsl.ir.Expr.BinaryOp.SHL, new io.prmkit.dsl.ir.Expr[] {one, n}), zero}), "1 << n is 0", Fixtures.at("s.prm", 5)),
                new io.prmkit.dsl.ir.Rule("shr_out", bin.apply(io.prmkit.dsl.ir.Expr.BinaryOp.EQ, new io.prmkit.dsl.ir.Expr[] {
                        bin.apply(io.prmkit.dsl.ir.Expr.BinaryOp.SHR, new io.prmkit.dsl.ir.Expr[] {v, n}), zero}), "v >> n is 0", Fixtures.at("s.prm", 6)));
        io.prmkit.dsl.ir.StructLayout shifty = Fixtures.struct("shifty", 16, List.of(
                Fixtures.M.field("n", 0x00, 7, 0).line("s.prm", 2),
                Fixtures.M.at("v", 0x40, new io.prmkit.dsl.ir.MemberType.Bits(64)).line("s.prm", 3)), rules, "", "s.prm", 1);
        Loaded l = Loaded.compile(new AccessorGenerator(GeneratorOptions.defaults())
                .generate(new io.prmkit.dsl.ir.LayoutModel(List.of(shifty), List.of(), List.of())), "mlx5");
        byte[] b = new byte[16];
        Object s = Loaded.segment(b);
        l.call("Shifty", "v$set", s, -1L);
        for (int count : new int[] {64, 65, 127, 200, 255}) {
            l.call("Shifty", "n$set", s, count);
            assertEquals(List.of(), l.call("Shifty", "validate", s), "n = " + count);
        }
        l.call("Shifty", "n$set", s, 3);
        List<?> broken = (List<?>) l.call("Shifty", "validate", s);
        assertEquals(2, broken.size(), broken.toString());
    }
}
