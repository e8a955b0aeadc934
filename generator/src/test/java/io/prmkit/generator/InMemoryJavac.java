package io.prmkit.generator;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles generated sources in memory with the running JDK's javac and loads them. Generated code
 * uses FFM, so this needs a JDK of at least 22 (the integration tests run on the JDK 25 toolchain).
 * Compiles with {@code --limit-modules java.base}: generated code may depend on java.base only.
 */
final class InMemoryJavac {
    private InMemoryJavac() {}

    static ClassLoader compile(List<GeneratedFile> files) {
        Result r = run(files);
        if (!r.errors().isEmpty()) throw new AssertionError("generated code does not compile:\n" + String.join("\n", r.errors()));
        return new Loader(r.classes());
    }

    /**
     * Compiles {@code files} and returns javac's errors, each {@code path:line: message} (empty when they
     * compile), for tests of what must not compile.
     */
    static List<String> errors(List<GeneratedFile> files) {
        return run(files).errors();
    }

    private record Result(Map<String, ByteArrayOutputStream> classes, List<String> errors) {}

    private static Result run(List<GeneratedFile> files) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) throw new IllegalStateException("no system Java compiler (running on a JRE?)");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager std = javac.getStandardFileManager(diagnostics, null, null);
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        JavaFileManager fm = new ForwardingJavaFileManager<>(std) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        classes.put(className, out);
                        return out;
                    }
                };
            }
        };
        List<JavaFileObject> sources = new ArrayList<>();
        for (GeneratedFile f : files) {
            sources.add(new SimpleJavaFileObject(URI.create("mem:///" + f.relativePath()), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return f.content();
                }
            });
        }
        StringWriter out = new StringWriter();
        List<String> options = List.of("--limit-modules", "java.base", "-Xlint:all", "-Werror", "-Xdoclint:all,-missing", "-proc:none");
        boolean ok = javac.getTask(out, fm, diagnostics, options, null, sources).call();
        List<String> errors = new ArrayList<>();
        if (!ok) {
            if (!out.toString().isEmpty()) errors.add(out.toString());
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                errors.add((d.getSource() == null ? "" : d.getSource().getName()) + ":" + d.getLineNumber() + ": "
                        + d.getKind() + ": " + d.getMessage(null));
            }
        }
        return new Result(classes, errors);
    }

    /** Defines the compiled classes on demand and remembers which it defined (to test what a call loads). */
    static final class Loader extends ClassLoader {
        private final Map<String, ByteArrayOutputStream> classes;
        private final java.util.Set<String> defined = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Loader(Map<String, ByteArrayOutputStream> classes) {
            super(InMemoryJavac.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream b = classes.get(name);
            if (b == null) throw new ClassNotFoundException(name);
            byte[] bytes = b.toByteArray();
            defined.add(name);
            return defineClass(name, bytes, 0, bytes.length);
        }

        /** Binary names of the generated classes loaded so far. */
        java.util.Set<String> defined() {
            return java.util.Set.copyOf(defined);
        }
    }
}
