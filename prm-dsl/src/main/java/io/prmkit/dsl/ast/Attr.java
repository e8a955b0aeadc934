package io.prmkit.dsl.ast;

import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ir.Access;

/** A member attribute as written. */
public sealed interface Attr {
    SourceLocation location();

    /** The attribute's keyword, for messages about duplicates and misuse. */
    String keyword();

    record AccessAttr(Access access, SourceLocation location) implements Attr {
        public String keyword() { return "access"; }
    }

    record EnumAttr(QName type, SourceLocation location) implements Attr {
        public String keyword() { return "enum"; }
    }

    record FlagsAttr(QName type, SourceLocation location) implements Attr {
        public String keyword() { return "flags"; }
    }

    record RangeAttr(Num min, Num max, SourceLocation location) implements Attr {
        public String keyword() { return "range"; }
    }

    record Pow2Attr(SourceLocation location) implements Attr {
        public String keyword() { return "pow2"; }
    }

    record Log2Attr(SourceLocation location) implements Attr {
        public String keyword() { return "log2"; }
    }

    record MbzAttr(SourceLocation location) implements Attr {
        public String keyword() { return "mbz"; }
    }

    record CapAttr(QName field, SourceLocation location) implements Attr {
        public String keyword() { return "cap"; }
    }

    record TagAttr(Name field, SourceLocation location) implements Attr {
        public String keyword() { return "tag"; }
    }

    record WhenAttr(ValueRef value, SourceLocation location) implements Attr {
        public String keyword() { return "when"; }
    }

    record RefAttr(String text, SourceLocation location) implements Attr {
        public String keyword() { return "ref"; }
    }

    record SinceAttr(String text, SourceLocation location) implements Attr {
        public String keyword() { return "since"; }
    }
}
