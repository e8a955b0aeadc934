package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns a layout model into Java sources: per structure or union a final class of static
 * {@code MemorySegment} accessors, per enum or flag set a Java enum, and per Java package one
 * {@code PrmLayout} support class (plus {@code PrmConstants} when the spec has constants). The
 * output depends on java.base only, and is byte-identical for equal models and options.
 */
public final class AccessorGenerator {
    private final GeneratorOptions options;

    public AccessorGenerator(GeneratorOptions options) {
        this.options = Objects.requireNonNull(options, "options == null");
    }

    /**
     * Generates all files, sorted by path, or throws {@link GeneratorException} listing every
     * problem (colliding Java names, unplaceable members) without producing partial output.
     */
    public List<GeneratedFile> generate(LayoutModel model) {
        Objects.requireNonNull(model, "model == null");
        GeneratorContext ctx = new GeneratorContext(options, model);
        List<String> problems = new ArrayList<>();
        checkNames(ctx, model, problems);
        if (!problems.isEmpty()) throw new GeneratorException(problems);

        Map<String, String> files = new TreeMap<>();
        Map<String, List<Constant>> constantsByPackage = new LinkedHashMap<>();
        StructEmitter structs = new StructEmitter(ctx, problems);
        EnumEmitter enums = new EnumEmitter(ctx, problems);
        SupportEmitter support = new SupportEmitter();
        for (StructLayout s : model.structs()) {
            put(files, structs.emit(s));
            files.putIfAbsent(path(ctx.layoutClass(s.name())), support.emit(ctx.javaPackage(s.name())));
        }
        for (EnumLayout e : model.enums()) put(files, enums.emit(e));
        for (Constant c : model.constants()) constantsByPackage.computeIfAbsent(ctx.javaPackage(c.name()), k -> new ArrayList<>()).add(c);
        ConstantsEmitter constants = new ConstantsEmitter();
        constantsByPackage.forEach((pkg, list) -> put(files, constants.emit(pkg, list)));
        if (!problems.isEmpty()) throw new GeneratorException(problems);

        List<GeneratedFile> out = new ArrayList<>();
        files.forEach((path, text) -> out.add(new GeneratedFile(path, text)));
        return List.copyOf(out);
    }

    private static void put(Map<String, String> files, JavaFile file) {
        ClassName name = ClassName.get(file.packageName(), file.typeSpec().name());
        files.put(path(name), file.toString());
    }

    private static String path(ClassName name) {
        String pkg = name.packageName();
        return (pkg.isEmpty() ? "" : pkg.replace('.', '/') + "/") + name.simpleName() + ".java";
    }

    /** Two declarations must not map to one class, nor to a support class name. */
    private static void checkNames(GeneratorContext ctx, LayoutModel model, List<String> problems) {
        Map<ClassName, String> owners = new TreeMap<>(Comparator.comparing(ClassName::canonicalName));
        List<QualifiedName> names = new ArrayList<>();
        model.structs().forEach(s -> names.add(s.name()));
        model.enums().forEach(e -> names.add(e.name()));
        for (QualifiedName n : names) {
            ClassName cn = ctx.className(n);
            String simple = cn.simpleName();
            if (simple.equals(GeneratorContext.LAYOUT_CLASS) || simple.equals(GeneratorContext.CONSTANTS_CLASS)) {
                problems.add(n + ": its class name " + simple + " is reserved for the generated support class; rename it");
                continue;
            }
            String prev = owners.putIfAbsent(cn, n.toString());
            if (prev != null) problems.add(prev + " and " + n + " both map to class " + cn.canonicalName() + "; rename one");
        }
    }
}
