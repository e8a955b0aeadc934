package io.prmkit.generator;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.JavaFile;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.ir.CommandLayout;
import io.prmkit.dsl.ir.Constant;
import io.prmkit.dsl.ir.EnumLayout;
import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.QualifiedName;
import io.prmkit.dsl.ir.RegisterLayout;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Turns a layout model into Java sources: per structure or union a final class of static
 * {@code MemorySegment} accessors, per enum or flag set a Java enum, and per Java package
 * {@code PrmConstants} when the spec has constants, {@code PrmField} when a structure has a static
 * store, {@code PrmCommands} / {@code PrmRegisters} when it declares commands / registers and
 * {@code PrmWqes} when it declares WQEs. The output depends on java.base and the support class
 * {@code io.prmkit.layout.PrmLayout} (the prmkit-layout jar, itself java.base only) and is
 * byte-identical for equal models and options.
 */
public final class AccessorGenerator {
    private final GeneratorOptions options;

    public AccessorGenerator(GeneratorOptions options) {
        this.options = Objects.requireNonNull(options, "options == null");
    }

    /**
     * Every reason {@code model} cannot become Java (class, member or constant names that collide in
     * Java, or take a generated class's name), each located at the declaration concerned; empty when
     * {@link #generate} will succeed. Front ends run it with the compiler's own checks, so a spec that
     * {@code check} accepts also generates.
     */
    public List<Diagnostic> check(LayoutModel model) {
        Objects.requireNonNull(model, "model == null");
        return GeneratorChecks.run(new GeneratorContext(options, model), model);
    }

    /**
     * Generates all files, sorted by path, or throws {@link GeneratorException} with every
     * diagnostic {@link #check} finds, without producing partial output.
     */
    public List<GeneratedFile> generate(LayoutModel model) {
        Objects.requireNonNull(model, "model == null");
        GeneratorContext ctx = new GeneratorContext(options, model);
        List<Diagnostic> problems = GeneratorChecks.run(ctx, model);
        if (problems.stream().anyMatch(Diagnostic::isError)) throw new GeneratorException(problems);

        Map<String, String> files = new TreeMap<>();
        Map<String, List<Constant>> constantsByPackage = new LinkedHashMap<>();
        StructEmitter structs = new StructEmitter(ctx);
        EnumEmitter enums = new EnumEmitter(ctx);
        Map<String, java.util.Set<String>> fieldNames = new TreeMap<>(); // Java package -> names its stores take
        for (StructLayout s : model.structs()) {
            put(files, structs.emit(s));
            java.util.Set<String> names = StoreEmitter.fieldNames(s);
            if (!names.isEmpty()) fieldNames.computeIfAbsent(ctx.javaPackage(s.name()), k -> new java.util.TreeSet<>()).addAll(names);
        }
        fieldNames.forEach((pkg, names) -> files.put(path(ClassName.get(pkg, StoreEmitter.FIELD_CLASS)), FieldNamesEmitter.emit(pkg, names)));
        for (EnumLayout e : model.enums()) put(files, enums.emit(e));
        for (Constant c : model.constants()) constantsByPackage.computeIfAbsent(ctx.javaPackage(c.name()), k -> new ArrayList<>()).add(c);
        ConstantsEmitter constants = new ConstantsEmitter();
        constantsByPackage.forEach((pkg, list) -> put(files, constants.emit(pkg, list)));
        CommandsEmitter commands = new CommandsEmitter(ctx);
        Map<String, List<CommandLayout>> commandsByPackage = new LinkedHashMap<>();
        Map<QualifiedName, CommandLayout> commandsByName = new LinkedHashMap<>();
        for (CommandLayout c : model.commands()) {
            commandsByPackage.computeIfAbsent(ctx.javaPackage(c.name()), k -> new ArrayList<>()).add(c);
            commandsByName.put(c.name(), c);
        }
        commandsByPackage.forEach((pkg, list) -> put(files, commands.commands(pkg, list)));
        Map<String, List<RegisterLayout>> registersByPackage = new LinkedHashMap<>();
        for (RegisterLayout r : model.registers()) registersByPackage.computeIfAbsent(ctx.javaPackage(r.name()), k -> new ArrayList<>()).add(r);
        registersByPackage.forEach((pkg, list) -> put(files, commands.registers(pkg, list, commandsByName)));
        Map<String, List<io.prmkit.dsl.ir.WqeLayout>> wqesByPackage = new LinkedHashMap<>();
        for (io.prmkit.dsl.ir.WqeLayout w : model.wqes()) wqesByPackage.computeIfAbsent(ctx.javaPackage(w.name()), k -> new ArrayList<>()).add(w);
        WqesEmitter wqes = new WqesEmitter(ctx);
        wqesByPackage.forEach((pkg, list) -> put(files, wqes.emit(pkg, list)));

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
}
