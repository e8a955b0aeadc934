package io.prmkit.generator;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

/**
 * Calls generated accessors by name. The tests compile for Java 17 and the generated code uses FFM,
 * so segments are created and passed reflectively; a heap segment over a {@code byte[]} lets the
 * tests check every raw byte independently of the accessors.
 */
final class Loaded {
    static final Class<?> SEGMENT;
    private static final Method OF_ARRAY;

    static {
        try {
            SEGMENT = Class.forName("java.lang.foreign.MemorySegment");
            OF_ARRAY = SEGMENT.getMethod("ofArray", byte[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("the integration tests need a JDK with java.lang.foreign (22+): " + e);
        }
    }

    private final ClassLoader loader;
    private final String pkg;

    Loaded(ClassLoader loader, String pkg) {
        this.loader = loader;
        this.pkg = pkg;
    }

    static Loaded compile(List<GeneratedFile> files, String pkg) {
        return new Loaded(InMemoryJavac.compile(files), pkg);
    }

    /** A MemorySegment viewing {@code bytes} (writes through to the array). */
    static Object segment(byte[] bytes) {
        try {
            return OF_ARRAY.invoke(null, (Object) bytes);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** The class loader of the compiled classes (to look up another package's with). */
    ClassLoader loader() {
        return loader;
    }

    /** Binary names of the generated classes loaded so far. */
    java.util.Set<String> defined() {
        return ((InMemoryJavac.Loader) loader).defined();
    }

    Class<?> cls(String simpleName) {
        try {
            return Class.forName(pkg.isEmpty() ? simpleName : pkg + "." + simpleName, true, loader);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    Object constant(String cls, String field) {
        try {
            return cls(cls).getField(field).get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The arguments of a static store: {@code seg}, {@code offset} (left out when null), then per field its
     * {@code PrmField} name and its value.
     */
    Object[] storeArgs(Object seg, Long offset, List<String> fields, Object[] values) {
        List<Object> args = new java.util.ArrayList<>();
        args.add(seg);
        if (offset != null) args.add(offset);
        for (int i = 0; i < fields.size(); i++) {
            args.add(constant(StoreEmitter.FIELD_CLASS, StoreEmitter.marker(fields.get(i))));
            args.add(values[i]);
        }
        return args.toArray();
    }

    boolean hasMethod(String cls, String name) {
        return Arrays.stream(cls(cls).getMethods()).anyMatch(m -> m.getName().equals(name) && Modifier.isStatic(m.getModifiers()));
    }

    /** Calls the public static method {@code name} of {@code cls} whose parameters accept {@code args}; rethrows what it throws. */
    Object call(String cls, String name, Object... args) {
        Method m = find(cls(cls), name, args);
        try {
            return m.invoke(null, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException r) throw r;
            if (t instanceof Error err) throw err;
            throw new AssertionError(t);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Calls the public instance method {@code name} of {@code target} (e.g. a generated Writer). */
    static Object invoke(Object target, String name, Object... args) {
        Method m = find(target.getClass(), name, args);
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException r) throw r;
            if (t instanceof Error err) throw err;
            throw new AssertionError(t);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static Method find(Class<?> c, String name, Object[] args) {
        outer:
        for (Method m : c.getMethods()) {
            if (!m.getName().equals(name) || m.getParameterCount() != args.length) continue;
            Class<?>[] p = m.getParameterTypes();
            for (int i = 0; i < p.length; i++) {
                if (!accepts(p[i], args[i])) continue outer;
            }
            return m;
        }
        throw new AssertionError("no method " + c.getSimpleName() + "." + name + " for " + Arrays.toString(args));
    }

    private static boolean accepts(Class<?> p, Object a) {
        if (p == int.class) return a instanceof Integer;
        if (p == long.class) return a instanceof Long;
        if (p == boolean.class) return a instanceof Boolean;
        return a == null ? !p.isPrimitive() : p.isInstance(a);
    }
}
