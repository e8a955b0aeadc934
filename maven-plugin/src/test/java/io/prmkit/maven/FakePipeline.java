package io.prmkit.maven;

import io.prmkit.pipeline.OutputFile;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceFile;
import io.prmkit.dsl.SourceLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for compiler + generator with obvious rules, so the plugin's incremental logic can be
 * tested on its own: a line {@code struct X} generates {@code <prefix-as-dirs>/X.java}; a line
 * {@code error M} or {@code warning M} is a diagnostic at that line, column 1; a line
 * {@code problem M} is an error without a place (like a Java name collision).
 */
final class FakePipeline implements SpecPipeline {
    int runs;
    List<String> lastSourceNames = List.of();

    @Override
    public Result run(List<SourceFile> specs, List<SourceFile> headers, String packagePrefix) {
        runs++;
        List<SourceFile> sources = new ArrayList<>(specs);
        sources.addAll(headers); // headers follow the same rules here
        lastSourceNames = sources.stream().map(SourceFile::name).toList();
        List<Diagnostic> diags = new ArrayList<>();
        List<OutputFile> files = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String dir = packagePrefix.isEmpty() ? "" : packagePrefix.replace('.', '/') + "/";
        for (SourceFile s : sources) {
            String[] lines = s.text().split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                SourceLocation at = new SourceLocation(s.name(), i + 1, 1);
                if (line.startsWith("struct ")) {
                    String name = line.substring(7);
                    files.add(new OutputFile(dir + name + ".java", "// generated from " + s.name() + "\nclass " + name + " {}\n"));
                } else if (line.startsWith("error ")) {
                    diags.add(Diagnostic.error(at, line.substring(6)));
                } else if (line.startsWith("problem ")) {
                    problems.add(line.substring(8));
                } else if (line.startsWith("warning ")) {
                    diags.add(Diagnostic.warning(at, line.substring(8)));
                }
            }
        }
        boolean errors = !problems.isEmpty() || diags.stream().anyMatch(Diagnostic::isError);
        return new Result(diags, problems, errors ? List.of() : files);
    }

    @Override
    public String render(Diagnostic d, Map<String, SourceFile> sources) {
        return d + "\n" + sources.get(d.location().file()).line(d.location().line()) + "\n^";
    }
}
