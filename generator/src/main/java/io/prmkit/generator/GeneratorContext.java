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
    static final String LAYOUT_CLASS = "PrmLayout";
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

    /** The support class ({@code PrmLayout}) of the Java package that holds {@code name}. */
    ClassName layoutClass(QualifiedName name) {
        return ClassName.get(javaPackage(name), LAYOUT_CLASS);
    }

    /** The enum or flag set a member names: the model holds every one (a {@code LayoutModel} invariant). */
    EnumLayout enumType(QualifiedName name) {
        EnumLayout e = enums.get(name);
        if (e == null) throw new IllegalStateException(name + " is not in the model, which LayoutModel guarantees");
        return e;
    }
}
