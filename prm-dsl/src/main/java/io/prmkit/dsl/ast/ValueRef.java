package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;

/** A value written as an integer or as the name of a constant or enum value ({@code when V}). */
public sealed interface ValueRef permits Num, QName {
    SourceLocation location();
}
