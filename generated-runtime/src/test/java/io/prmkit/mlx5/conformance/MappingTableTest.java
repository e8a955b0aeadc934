package io.prmkit.mlx5.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The mapping table's own format: what the conformance test reads must be parsed exactly. */
class MappingTableTest {

    @Test
    void parsesEveryRowKindAndKeepsPipesInTheLastColumn() {
        List<MappingTable.Row> rows = MappingTable.parse("""
                # comment
                field | cqe64.timestamp[63:32] | kernel | struct mlx5_cqe64 | timestamp_h | all
                field | wqe_eth_seg.trailer_hdr_assoc | kernel | struct mlx5_wqe_eth_seg | trailer | mask(A | B)
                size | cqe64 | rdma | struct mlx5_cqe64
                value | cqe_opcode.REQ | kernel | MLX5_CQE_REQ
                offset | uar_page.cq_doorbell | kernel | MLX5_CQ_DOORBELL
                differs | eqe.gpio_event | kernel | struct mlx5_eqe | data.gpio.gpio_event | all
                unmapped | err_cqe.hw_err_synd | reserved in kernel | and rdma-core
                enum | qp_state | ifc | MLX5_QPC_STATE_
                """);
        assertEquals(8, rows.size());
        MappingTable.SpecRef piece = rows.get(0).specRef();
        assertEquals("cqe64", piece.struct());
        assertEquals("timestamp", piece.field());
        assertEquals(63, piece.hi());
        assertEquals(32, piece.lo());
        assertEquals(2, rows.get(0).line());
        assertEquals("mask(A | B)", rows.get(1).bits());
        assertFalse(rows.get(1).specRef().hasPiece());
        assertEquals(MappingTable.Source.RDMA, rows.get(2).source());
        assertEquals("MLX5_CQE_REQ", rows.get(3).expr());
        assertEquals(MappingTable.Kind.DIFFERS, rows.get(5).kind());
        assertEquals("reserved in kernel | and rdma-core", rows.get(6).expr());
        assertEquals(MappingTable.Kind.ENUM, rows.get(7).kind());
        assertEquals("MLX5_QPC_STATE_", rows.get(7).expr());
    }

    @Test
    void rejectsMalformedRowsWithTheirLine() {
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
                () -> MappingTable.parse("\nfeild | a.b | kernel | struct x | y | all\n"));
        assertTrue(kind.getMessage().contains("c-struct-map.txt:2") && kind.getMessage().contains("feild"), kind.getMessage());
        IllegalArgumentException cols = assertThrows(IllegalArgumentException.class,
                () -> MappingTable.parse("size | a | kernel\n"));
        assertTrue(cols.getMessage().contains("4 columns"), cols.getMessage());
        IllegalArgumentException src = assertThrows(IllegalArgumentException.class,
                () -> MappingTable.parse("value | e.V | dpdk | X\n"));
        assertTrue(src.getMessage().contains("unknown source 'dpdk'"), src.getMessage());
        IllegalArgumentException ref = assertThrows(IllegalArgumentException.class,
                () -> MappingTable.parse("field | cqe64 | kernel | struct x | y | all\n").get(0).specRef());
        assertTrue(ref.getMessage().contains("not a spec field reference"), ref.getMessage());
    }

    @Test
    void bundledTableParses() {
        List<MappingTable.Row> rows = MappingTable.load();
        assertTrue(rows.size() > 300, "rows: " + rows.size());
        rows.stream().filter(r -> r.kind() != MappingTable.Kind.SIZE && r.kind() != MappingTable.Kind.VALUE && r.kind() != MappingTable.Kind.ENUM)
                .forEach(MappingTable.Row::specRef);
    }
}
