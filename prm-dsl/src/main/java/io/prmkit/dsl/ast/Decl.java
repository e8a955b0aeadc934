package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;

/** A top-level declaration; all kinds share one namespace per package. */
public sealed interface Decl permits StructDecl, EnumDecl, ConstDecl, CommandDecl, RegisterDecl, WqeDecl {
    Name name();

    SourceLocation location();

    /** "struct", "union", "enum", "flags", "const", "command", "register" or "wqe", for messages. */
    String kindWord();
}
