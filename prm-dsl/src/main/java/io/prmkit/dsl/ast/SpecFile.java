package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import java.util.List;
import java.util.Objects;

/** One parsed {@code .prm} file. */
public record SpecFile(String file, QName pkg, List<Import> imports, List<Decl> decls) {
    public SpecFile {
        Objects.requireNonNull(file, "file == null");
        Objects.requireNonNull(pkg, "pkg == null");
        imports = List.copyOf(imports);
        decls = List.copyOf(decls);
    }

    /** {@code import a.b;} */
    public record Import(QName pkg, SourceLocation location) {
        public Import {
            Objects.requireNonNull(pkg, "pkg == null");
            Objects.requireNonNull(location, "location == null");
        }
    }
}
