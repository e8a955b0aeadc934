package io.prmkit.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prmkit.dsl.ir.LayoutModel;
import io.prmkit.dsl.ir.StructLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Helpers for compiling inline snippets in tests. */
public final class Specs {
    private Specs() {
    }

    public static CompileResult compile(String text) {
        return PrmCompiler.compile(List.of(new SourceFile("t.prm", text)));
    }

    public static CompileResult compileUpTo(String pass, String text) {
        return PrmCompiler.compile(List.of(new SourceFile("t.prm", text)), pass);
    }

    /** Files as name, text, name, text, ... */
    public static CompileResult compileFiles(String... nameText) {
        List<SourceFile> files = new ArrayList<>();
        for (int i = 0; i < nameText.length; i += 2) files.add(new SourceFile(nameText[i], nameText[i + 1]));
        return PrmCompiler.compile(files);
    }

    public static LayoutModel model(String text) {
        CompileResult r = compile(text);
        assertFalse(r.hasErrors(), () -> "unexpected errors:\n" + render(r, text));
        assertTrue(r.model().isPresent());
        return r.model().get();
    }

    public static StructLayout struct(String text, String name) {
        return model(text).struct(name).orElseThrow();
    }

    /** Diagnostics as {@code line:col: severity: message}, one per line. */
    public static String diags(CompileResult r) {
        return r.diagnostics().stream()
                .map(d -> d.location().line() + ":" + d.location().column() + ": " + d.severity().label() + ": " + d.message())
                .collect(Collectors.joining("\n"));
    }

    /** Asserts exactly one error, with this {@code line:col: error: message}. */
    public static void assertError(String expected, String text) {
        CompileResult r = compile(text);
        assertEquals(expected, diags(r));
        assertTrue(r.model().isEmpty());
    }

    public static String render(CompileResult r, String text) {
        Map<String, SourceFile> m = new LinkedHashMap<>();
        m.put("t.prm", new SourceFile("t.prm", text));
        return r.diagnostics().stream().map(d -> DiagnosticPrinter.render(d, m)).collect(Collectors.joining());
    }
}
