package io.prmkit.driver.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No class in the driver's or soft-hca's main code (top-level, nested or local, public or not) has
 * the simple name of a public type of a {@code java.*} module of the running JDK (read from its
 * {@code jrt:} image, not a hand list: java.desktop's {@code Port}, {@code Window} or {@code List}
 * count), and no two top-level classes of one module share a simple name. A reader who sees
 * {@code Checksum} or {@code EventQueue} in an import list should not have to check which one it is.
 * A nested JDK type ({@code Map.Entry}, {@code Thread.State}) counts against our top-level classes
 * only: nested on both sides, each is named through its outer type ({@code DeviceObjects.Kind} beside
 * {@code Opcode.Kind}), and counting them would forbid {@code Kind}, {@code State} or {@code Type}
 * as a member name everywhere. {@link #ALLOWED} keeps the few kept on purpose, each with its reason.
 */
class ClassNamesTest {
    private static final JavaClasses DRIVER = LayeringTest.DRIVER;
    private static final JavaClasses SOFT_HCA = LayeringTest.SOFT_HCA;

    /** Our class (binary name) -> why it keeps a {@code java.*} type's simple name. */
    static final Map<String, String> ALLOWED = Map.of(
            "io.prmkit.softhca.wire.Port",
            "an Ethernet port (the PRM's local_port, PAOS/PMTU); javax.sound.sampled.Port is an audio mixer's, nothing here imports javax.sound");

    /** Simple name -> the public top-level {@code java.*} types that have it (binary names, with their module). */
    static final Map<String, Set<String>> JDK = jdkPublicTypes(false);
    /** The same for public nested types (their enclosing types public too). */
    static final Map<String, Set<String>> JDK_NESTED = jdkPublicTypes(true);

    @Test
    void theClassesAreThere() {
        assertTrue(DRIVER.size() > 40, "driver classes: " + DRIVER.size());
        assertTrue(SOFT_HCA.size() > 40, "soft-hca classes: " + SOFT_HCA.size());
        // the JDK's names were read: java.base's, java.desktop's and java.sql's, nested ones too
        for (String n : List.of("Objects", "Function", "EventQueue", "Window", "Connection")) {
            assertTrue(JDK.containsKey(n), n + " not among " + JDK.size() + " java.* names");
        }
        assertTrue(JDK_NESTED.get("Entry").contains("java.util.Map$Entry (java.base)"), "Map.Entry among " + JDK_NESTED.size() + " nested names");
    }

    @Test
    void noClassHasTheNameOfAJavaType() {
        List<String> clashes = new ArrayList<>();
        clashes.addAll(clashesWithJava(DRIVER));
        clashes.addAll(clashesWithJava(SOFT_HCA));
        assertEquals(List.of(), clashes, "classes named like java.* types (rename them, or add one to ALLOWED with a reason)");
    }

    @Test
    void noTwoTopLevelClassesOfAModuleShareAName() {
        List<String> twins = new ArrayList<>();
        twins.addAll(twins(DRIVER));
        twins.addAll(twins(SOFT_HCA));
        assertEquals(List.of(), twins, "top-level classes of one module with one simple name");
    }

    @Test
    void everyAllowedClassExistsAndStillClashes() {
        for (String name : ALLOWED.keySet()) {
            JavaClasses in = name.startsWith("io.prmkit.softhca.") ? SOFT_HCA : DRIVER;
            assertTrue(in.contain(name), name + " is in ALLOWED but no longer exists: take it out");
            assertTrue(!javaTypesNamedLike(in.get(name)).isEmpty(), name + " is in ALLOWED but clashes with nothing: take it out");
        }
    }

    @Test
    void theRulesSeeAClash() {
        // A rule that cannot fail proves nothing: the fixture has a Checksum with a nested List and a
        // nested Kind (nested like Opcode.Kind: not a clash), an Entry (Map.Entry's name) and two top-level Twins.
        JavaClasses fixture = new ClassFileImporter().importPackages("io.prmkit.driver.arch.namefixture");
        List<String> clashes = clashesWithJava(fixture);
        assertEquals(3, clashes.size(), clashes::toString);
        assertEquals("io.prmkit.driver.arch.namefixture.Checksum has the simple name of java.util.zip.Checksum (java.base)", clashes.get(0));
        assertEquals("io.prmkit.driver.arch.namefixture.Checksum$List has the simple name of java.awt.List (java.desktop), java.util.List (java.base)",
                clashes.get(1));
        assertTrue(clashes.get(2).startsWith("io.prmkit.driver.arch.namefixture.Entry has the simple name of ")
                && clashes.get(2).contains("java.util.Map$Entry (java.base)"), clashes.get(2));
        assertEquals(List.of("Twin: io.prmkit.driver.arch.namefixture.a.Twin, io.prmkit.driver.arch.namefixture.b.Twin"), twins(fixture));
    }

    static List<String> clashesWithJava(JavaClasses classes) {
        List<String> out = new ArrayList<>();
        for (JavaClass c : sorted(classes)) {
            String simple = c.getSimpleName();
            if (simple.isEmpty() || c.isAnonymousClass() || ALLOWED.containsKey(c.getName())) continue;
            Set<String> java = javaTypesNamedLike(c);
            if (!java.isEmpty()) out.add(c.getName() + " has the simple name of " + String.join(", ", java));
        }
        return out;
    }

    /** The {@code java.*} types {@code c} must not be named like: top-level ones, and nested ones if {@code c} is top-level. */
    static Set<String> javaTypesNamedLike(JavaClass c) {
        Set<String> java = new TreeSet<>(JDK.getOrDefault(c.getSimpleName(), Set.of()));
        if (c.isTopLevelClass()) java.addAll(JDK_NESTED.getOrDefault(c.getSimpleName(), Set.of()));
        return java;
    }

    static List<String> twins(JavaClasses classes) {
        Map<String, Set<String>> bySimpleName = new TreeMap<>();
        for (JavaClass c : classes) {
            if (c.isTopLevelClass() && !c.getSimpleName().equals("package-info")) {
                bySimpleName.computeIfAbsent(c.getSimpleName(), k -> new TreeSet<>()).add(c.getName());
            }
        }
        List<String> out = new ArrayList<>();
        bySimpleName.forEach((n, names) -> {
            if (names.size() > 1) out.add(n + ": " + String.join(", ", names));
        });
        return out;
    }

    private static List<JavaClass> sorted(JavaClasses classes) {
        return classes.stream().sorted(Comparator.comparing(JavaClass::getName)).toList();
    }

    /**
     * Every public top-level type (or, with {@code nested}, every public nested type whose enclosing
     * types are public too) in a package that a {@code java.*} system module exports to everyone, keyed
     * by simple name. The class files are listed from the {@code jrt:} image and loaded without
     * initialising them to read their modifiers.
     */
    static Map<String, Set<String>> jdkPublicTypes(boolean nested) {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        Map<String, Set<String>> bySimpleName = new TreeMap<>();
        for (ModuleReference ref : ModuleFinder.ofSystem().findAll()) {
            ModuleDescriptor d = ref.descriptor();
            if (!d.name().startsWith("java.")) continue;
            for (ModuleDescriptor.Exports e : d.exports()) {
                if (e.isQualified()) continue;
                Path dir = jrt.getPath("/modules", d.name(), e.source().replace('.', '/'));
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        String file = f.getFileName().toString();
                        if (!file.endsWith(".class") || file.contains("-")) continue; // module-info, package-info
                        if (file.contains("$") != nested) continue;
                        String binary = e.source() + "." + file.substring(0, file.length() - ".class".length());
                        Class<?> type = publicType(binary);
                        if (type != null) {
                            bySimpleName.computeIfAbsent(type.getSimpleName(), k -> new TreeSet<>())
                                    .add(type.getName() + " (" + d.name() + ")");
                        }
                    }
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            }
        }
        return bySimpleName;
    }

    private static Class<?> publicType(String binaryName) {
        Class<?> c;
        try {
            c = Class.forName(binaryName, false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException | LinkageError x) {
            return null; // a module not in this runtime's boot layer
        }
        if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) return null;
        for (Class<?> t = c; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers())) return null;
        }
        return c;
    }
}
