package io.prmkit.dsl.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prmkit.dsl.CompileResult;
import io.prmkit.dsl.PrmCompiler;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Member;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The two ways of placing a field (PRM notation and sequential widths) resolve to the same IR. */
class NotationPropertyTest {

    static StructLayout compile(String text) {
        CompileResult r = PrmCompiler.compile(List.of(new SourceFile("gen.prm", text)));
        if (r.hasErrors()) throw new AssertionError("unexpected diagnostics " + r.diagnostics() + " for\n" + text);
        return r.model().orElseThrow().structs().get(0);
    }

    /** The IR without source locations, which naturally differ between the two texts. */
    static List<Member> members(StructLayout s) {
        List<Member> out = new ArrayList<>();
        for (Member m : s.members()) {
            out.add(new Member(m.name(), m.bitOffset(), m.type(), m.reserved(), m.access(), m.enumType(), m.flagsType(),
                    m.constraints(), m.capability(), m.variant(), m.selector(), m.doc(), SourceLocation.NONE));
        }
        return out;
    }

    @Property(tries = 300)
    void prmAndSequentialNotationsGiveTheSameLayout(@ForAll long seed, @ForAll @IntRange(min = 1, max = 24) int dwords) {
        RandomLayout layout = RandomLayout.generate(seed, dwords);
        StructLayout prm = compile(layout.prmSpec(layout.rows()));
        StructLayout seq = compile(layout.sequentialSpec());
        StructLayout mixed = compile(layout.mixedSpec(new Random(seed)));
        assertEquals(members(prm), members(seq));
        assertEquals(members(prm), members(mixed));
        assertEquals(prm.sizeBytes(), seq.sizeBytes());
        assertEquals(dwords * 4L, prm.sizeBytes());
        assertEquals(layout.rows().size(), prm.members().size());
    }

    @Property(tries = 200)
    void rowOrderDoesNotChangeWherePlacedFieldsAre(@ForAll long seed, @ForAll @IntRange(min = 1, max = 16) int dwords) {
        RandomLayout layout = RandomLayout.generate(seed, dwords);
        List<RandomLayout.Row> shuffled = new ArrayList<>(layout.rows());
        Collections.shuffle(shuffled, new Random(seed));
        List<Member> inOrder = members(compile(layout.prmSpec(layout.rows())));
        List<Member> outOfOrder = new ArrayList<>(members(compile(layout.prmSpec(shuffled))));
        outOfOrder.sort(Comparator.comparingLong(Member::bitOffset));
        assertEquals(inOrder, outOfOrder);
    }

    @Property(tries = 200)
    void membersTileTheStructExactly(@ForAll long seed, @ForAll @IntRange(min = 1, max = 24) int dwords) {
        RandomLayout layout = RandomLayout.generate(seed, dwords);
        StructLayout s = compile(layout.prmSpec(layout.rows()));
        long next = 0;
        for (Member m : s.members()) {
            assertEquals(next, m.bitOffset(), m.name());
            RandomLayout.Row row = layout.rows().get(s.members().indexOf(m));
            assertEquals(row.offset(), m.bitOffset());
            assertEquals(row.width(), m.bitWidth());
            assertEquals(row.reserved() ? "reserved_at_" + Long.toHexString(row.offset()) : row.name(), m.name());
            next = m.bitEnd();
        }
        assertEquals(s.sizeBits(), next);
    }
}
