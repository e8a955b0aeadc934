package io.prmkit.generator;

import io.prmkit.dsl.ir.QualifiedName;
import java.util.Locale;
import java.util.Set;

/** Turns spec names into Java names. Member names stay verbatim (so {@code log_cq_size} is greppable). */
public final class Names {
    private Names() {}

    /** Java keywords and literals; a spec name equal to one gets a trailing underscore. */
    private static final Set<String> KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
            "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "true", "false", "null", "_", "var", "yield", "record", "sealed", "permits");

    /** Static methods every structure class declares; a member of that name gets a trailing underscore. */
    private static final Set<String> STRUCT_METHODS = Set.of("clear", "validate", "dump", "writer", "layout", "store", "storeUnchecked");

    /** {@code wqe_eth_seg} to {@code WqeEthSeg}, {@code cqc} to {@code Cqc}, {@code mlx5_x} to {@code Mlx5X}. */
    public static String upperCamel(String specName) {
        StringBuilder sb = new StringBuilder(specName.length());
        boolean upper = true;
        for (int i = 0; i < specName.length(); i++) {
            char c = specName.charAt(i);
            if (c == '_') {
                upper = true;
            } else if (upper) {
                sb.append(Character.toUpperCase(c));
                upper = false;
            } else {
                sb.append(c);
            }
        }
        if (sb.length() == 0 || !Character.isJavaIdentifierStart(sb.charAt(0))) sb.insert(0, 'P');
        return sb.toString();
    }

    /** The Java identifier for a member (verbatim unless it is a keyword or clashes with a struct method). */
    public static String member(String specName) {
        return KEYWORDS.contains(specName) || STRUCT_METHODS.contains(specName) ? specName + "_" : specName;
    }

    /** The Java identifier for an enum constant, rule or constant name (verbatim unless a keyword). */
    public static String identifier(String specName) {
        return KEYWORDS.contains(specName) ? specName + "_" : specName;
    }

    /**
     * Fields every generated enum declares, and the types its code names in expressions (a constant
     * named {@code Long} would obscure {@code Long.toHexString}); an enum constant of such a name gets a
     * trailing underscore.
     */
    private static final Set<String> ENUM_FIELDS = Set.of("value", "doc", "detail", "bit", "mask", "BY_VALUE", "SORTED_VALUES",
            "BY_SORTED_VALUE", "Long", "Integer", "String", "Arrays", "EnumSet");

    /** The Java identifier for an enum or flag constant. */
    public static String enumConstant(String specName) {
        return KEYWORDS.contains(specName) || ENUM_FIELDS.contains(specName) ? specName + "_" : specName;
    }

    /** The Java package for a spec package under the configured prefix. */
    public static String javaPackage(GeneratorOptions options, String specPackage) {
        StringBuilder sb = new StringBuilder(options.packagePrefix());
        if (!specPackage.isEmpty()) {
            for (String part : specPackage.split("\\.", -1)) {
                if (sb.length() > 0) sb.append('.');
                sb.append(identifier(part.toLowerCase(Locale.ROOT)));
            }
        }
        return sb.toString();
    }

    public static String javaPackage(GeneratorOptions options, QualifiedName name) {
        return javaPackage(options, name.pkg());
    }

    public static boolean isQualifiedJavaName(String s) {
        for (String part : s.split("\\.", -1)) {
            if (part.isEmpty() || KEYWORDS.contains(part) || !Character.isJavaIdentifierStart(part.charAt(0))) return false;
            for (int i = 1; i < part.length(); i++) {
                if (!Character.isJavaIdentifierPart(part.charAt(i))) return false;
            }
        }
        return true;
    }
}
