package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;

/** A top-level declaration; all kinds share one namespace per package. */
public sealed interface Decl permits StructDecl, EnumDecl, ConstDecl {
    Name name();

    SourceLocation location();

    /** "struct", "union", "enum", "flags" or "const", for messages. */
    String kindWord();
}
