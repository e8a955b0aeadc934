package io.prmkit.dsl.ast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.Specs;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TypeRefTest {
    private static final SourceLocation AT = new SourceLocation("t.prm", 1, 1);

    private static TypeRef named(String... parts) {
        return new TypeRef(Optional.empty(), Optional.of(new QName(List.of(parts), AT)), TypeRef.Arity.SINGLE, Optional.empty(), AT);
    }

    @Test
    void builtInTypesAreRecognisedOnceAsTypedValues() {
        assertEquals(Optional.of(TypeRef.Builtin.U8), named("u8").builtin());
        assertEquals(64, named("u64").builtin().orElseThrow().bits);
        assertEquals(Optional.empty(), named("u24").builtin());
        assertEquals(Optional.empty(), named("p", "u32").builtin(), "a qualified name is a declaration, never a built-in type");
        assertThrows(IllegalArgumentException.class, () -> new TypeRef(Optional.empty(), Optional.of(new QName(List.of("s"), AT)),
                TypeRef.Arity.SINGLE, Optional.empty(), AT, Optional.of(TypeRef.Builtin.U8)));
    }

    @Test
    void aStructNamedLikeABuiltInIsReachedByItsQualifiedName() {
        var s = Specs.struct("package p;\nstruct u32 { 0x00 [31:0] x; 0x04 [31:0] y; }\nstruct a { 0x00 v : p.u32; 0x08 w : u32; }\n", "a");
        assertEquals(64, s.members().get(0).bitWidth());
        assertEquals(32, s.members().get(1).bitWidth());
    }
}
