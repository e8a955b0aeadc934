package io.prmkit.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void structNamesBecomeUpperCamelCase() {
        assertEquals("WqeEthSeg", Names.upperCamel("wqe_eth_seg"));
        assertEquals("CreateCqIn", Names.upperCamel("create_cq_in"));
        assertEquals("Cqc", Names.upperCamel("cqc"));
        assertEquals("Mlx5IfcX", Names.upperCamel("mlx5_ifc_x"));
        assertEquals("QueryHcaCapOut", Names.upperCamel("query_hca_cap_out"));
        assertEquals("PrmLayout", Names.upperCamel("prm__layout"));
    }

    @Test
    void memberNamesStayVerbatimUnlessTheyClash() {
        assertEquals("log_cq_size", Names.member("log_cq_size"));
        assertEquals("static_", Names.member("static"));
        assertEquals("default_", Names.member("default"));
        assertEquals("clear_", Names.member("clear"));
        assertEquals("dump_", Names.member("dump"));
        assertEquals("value_", Names.enumConstant("value"));
        assertEquals("SEND", Names.enumConstant("SEND"));
    }

    @Test
    void packagesJoinPrefixAndSpecPackage() {
        assertEquals("io.prmkit.gen.mlx5", Names.javaPackage(new GeneratorOptions("io.prmkit.gen"), "mlx5"));
        assertEquals("mlx5.caps", Names.javaPackage(GeneratorOptions.defaults(), "mlx5.caps"));
        assertEquals("x.int_", Names.javaPackage(new GeneratorOptions("x"), "int"));
        assertThrows(IllegalArgumentException.class, () -> new GeneratorOptions("io..gen"));
        assertThrows(IllegalArgumentException.class, () -> new GeneratorOptions("io.class"));
    }
}
