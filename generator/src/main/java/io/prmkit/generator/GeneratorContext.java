package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import java.util.LinkedHashMap;
import java.util.Map;

/** What every emitter needs to know about the whole model: options and the Java name of each declaration. */
final class GeneratorContext {
    static final ClassName MEMORY_SEGMENT = ClassName.get("java.lang.foreign", "MemorySegment");
    /** The simple name of the support class, which no generated class may take. */
    static final String LAYOUT_CLASS = "PrmLayout";
    /**
     * The support class every generated package imports, from the prmkit-layout jar (java.base only): one
     * type for all generated packages, so {@code PrmLayout.Struct} of {@code io.prmkit.mlx5} and of
     * {@code io.prmkit.net} are the same type.
     */
    static final ClassName PRM_LAYOUT = ClassName.get("io.prmkit.layout", LAYOUT_CLASS);
    /**
     * The prmkit-layout API level generated code needs ({@code PrmLayout.API}): every generated class that uses
     * PrmLayout calls {@code PrmLayout.requireApi(LAYOUT_API)} once, when it initialises, so code generated
     * by a newer prmkit fails there, naming both levels, on an older prmkit-layout jar instead of with a
     * NoSuchMethodError somewhere later. Raise it (with {@code PrmLayout.API}) when emitters start using
     * a member of PrmLayout that an older jar lacks; GeneratedFixturesIT checks the two agree.
     */
    static final int LAYOUT_API = 1;
    static final String CONSTANTS_CLASS = "PrmConstants";
    static final String COMMANDS_CLASS = "PrmCommands";
    static final String REGISTERS_CLASS = "PrmRegisters";

    final GeneratorOptions options;
    final LayoutModel model;
    private final Map<QualifiedName, EnumLayout> enums = new LinkedHashMap<>();

    GeneratorContext(GeneratorOptions options, LayoutModel model) {
        this.options = options;
        this.model = model;
        for (EnumLayout e : model.enums()) enums.put(e.name(), e);
    }

    String javaPackage(QualifiedName name) {
        return Names.javaPackage(options, name.pkg());
    }

    ClassName className(QualifiedName name) {
        return ClassName.get(javaPackage(name), Names.upperCamel(name.name()));
    }

    /** The support class ({@code io.prmkit.layout.PrmLayout}), the same for every package. */
    ClassName layoutClass(QualifiedName name) {
        return PRM_LAYOUT;
    }

    /**
     * {@code private static final int PRM_LAYOUT_API = PrmLayout.requireApi(N);}: the API-level check a
     * generated class runs when it initialises (once; the accessors never see it).
     */
    static com.palantir.javapoet.FieldSpec apiCheck() {
        return com.palantir.javapoet.FieldSpec.builder(com.palantir.javapoet.TypeName.INT, "PRM_LAYOUT_API",
                        javax.lang.model.element.Modifier.PRIVATE, javax.lang.model.element.Modifier.STATIC, javax.lang.model.element.Modifier.FINAL)
                .initializer("$T.requireApi($L)", PRM_LAYOUT, LAYOUT_API)
                .build();
    }

    /** The enum or flag set a member names: the model holds every one (a {@code LayoutModel} invariant). */
    EnumLayout enumType(QualifiedName name) {
        EnumLayout e = enums.get(name);
        if (e == null) throw new IllegalStateException(name + " is not in the model, which LayoutModel guarantees");
        return e;
    }
}
