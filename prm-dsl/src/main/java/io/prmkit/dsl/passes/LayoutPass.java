package io.prmkit.dsl.passes;

import io.prmkit.dsl.Words;
import io.prmkit.dsl.Diagnostic;
import io.prmkit.dsl.SourceLocation;
import io.prmkit.dsl.ast.Attr;
import io.prmkit.dsl.ast.GroupAlt;
import io.prmkit.dsl.ast.InlineUnion;
import io.prmkit.dsl.ast.Item;
import io.prmkit.dsl.ast.MemberDecl;
import io.prmkit.dsl.ast.Num;
import io.prmkit.dsl.ast.Placement;
import io.prmkit.dsl.ast.StructDecl;
import io.prmkit.dsl.ast.TypeRef;
import io.prmkit.dsl.ir.MemberType;
import java.util.ArrayList;
import java.util.List;

/**
 * Places every member: resolves PRM notation ({@code 0x04 [23:16]}), byte offsets and sequential
 * widths to absolute bit offsets, resolves types to widths, checks bit ranges, alignment (fields
 * of 32 bits or more on a dword boundary, narrower ones inside one dword), flexible arrays, union
 * extents and declared sizes.
 */
final class LayoutPass implements Pass {
    /** Larger offsets are certainly typos, and keep all arithmetic far from overflow. */
    static final long MAX_BYTES = 1L << 24;
    static final long MAX_ARRAY = 1L << 20;

    @Override
    public String name() {
        return "layout";
    }

    @Override
    public List<Diagnostic> run(Compilation c) {
        List<Diagnostic> diags = new ArrayList<>();
        for (StructDecl s : c.layoutOrder) {
            if (c.broken.contains(s)) continue;
            new StructLayouter(c, s, diags).run();
        }
        return diags;
    }

    private static final class StructLayouter {
        final Compilation c;
        final StructDecl s;
        final List<Diagnostic> diags;
        final Layout lay;
        boolean ok = true;

        StructLayouter(Compilation c, StructDecl s, List<Diagnostic> diags) {
            this.c = c;
            this.s = s;
            this.diags = diags;
            this.lay = new Layout(s);
        }

        void error(SourceLocation at, String message, Diagnostic.Related... related) {
            diags.add(Diagnostic.error(at, message, related));
            ok = false;
        }

        /** A nested flexible tail where C (GNU) allows one: only the fixed part counts, like sizeof. */
        void nestedFlexible(Layout.LaidMember lm, String where) {
            diags.add(Diagnostic.warning(lm.location, "'" + lm.name + "' " + where + "; its type ends in a flexible array,"
                    + " which is ignored here (only its fixed part counts, as in C)"));
        }

        void run() {
            long end = s.union() ? layoutUnionDecl() : layoutStruct();
            if (!ok) {
                c.broken.add(s);
                return;
            }
            String what = s.kindWord() + " '" + s.name().text() + "'";
            if (s.size().isPresent()) {
                Num size = s.size().get();
                if (size.value() == 0 || Long.compareUnsigned(size.value(), MAX_BYTES) > 0) {
                    error(size.location(), "size must be 1.." + Bits.hex(MAX_BYTES) + " bytes, not " + size.text());
                } else {
                    lay.sizeBits = size.value() * 8;
                    for (Layout.LaidMember m : lay.members) {
                        if (m.end() > lay.sizeBits) {
                            error(m.location, "'" + m.name + "' does not fit in " + what + " of size " + size.text()
                                    + ": it ends at byte " + Bits.byteOffset((m.end() + 7) / 8) + " (bit " + Bits.hex(m.end()) + ")",
                                    new Diagnostic.Related(size.location(), "size declared here"));
                        }
                    }
                }
            } else {
                lay.sizeBits = roundUp(end);
                if (end == 0 && lay.members.isEmpty()) {
                    error(s.name().location(), what + " is empty");
                }
            }
            if (lay.sizeBits > MAX_BYTES * 8) {
                error(s.name().location(), what + " is too large (" + Bits.hex(lay.sizeBits / 8) + " bytes)");
            }
            if (ok && lay.flexible != null && lay.flexible.type instanceof MemberType.Array) {
                Layout.LaidMember f = lay.flexible;
                if (f.union != null && f.union.end != lay.sizeBits) {
                    // a flexible alternative starts at its union's start: the union itself must end the structure
                    error(f.location, "flexible array '" + f.name + "' is an alternative of union '" + f.union.name
                            + "', which must end " + what + " (byte " + Bits.byteOffset(lay.sizeBits / 8) + ") but ends at "
                            + position(f.union.end));
                } else if (f.union == null && f.bitOffset != lay.sizeBits) {
                    error(f.location, "flexible array '" + f.name + "' must start at the end of " + what
                            + " (byte " + Bits.byteOffset(lay.sizeBits / 8) + "), not at " + position(f.bitOffset));
                }
            }
            if (ok) {
                c.layouts.put(s, lay);
            } else {
                c.broken.add(s);
            }
        }

        /**
         * The size of a structure without a declared size: a PRM table (any member placed with an
         * offset) is a whole number of dwords; a kernel-style sequential layout is as long as its
         * members, in whole bytes (mlx5_ifc.h has 16-bit structures used as array elements).
         */
        long roundUp(long end) {
            return lay.positioned ? Bits.roundUpToDword(end) : (end + 7) & ~7L;
        }

        long layoutStruct() {
            long cursor = 0;
            List<Item> items = s.items();
            for (int i = 0; i < items.size(); i++) {
                Item it = items.get(i);
                boolean last = i == items.size() - 1;
                if (it instanceof MemberDecl m) {
                    if (m.placement().isPresent()) lay.positioned = true;
                    Layout.LaidMember lm = place(m, cursor);
                    if (lm == null) continue;
                    if (endsFlexible(lm)) {
                        if (last) {
                            lay.flexible = lm;
                        } else if (isFlexibleArray(lm)) {
                            error(lm.location, "flexible array '" + lm.name + "' must be the last member");
                            lay.flexible = lm;
                        } else {
                            nestedFlexible(lm, "is not the last member");
                        }
                    }
                    for (Attr a : m.attrs()) {
                        if (a instanceof Attr.WhenAttr) {
                            error(a.location(), "'when' is only allowed on an alternative of a union");
                        }
                    }
                    lay.members.add(lm);
                    if (!(lm.type instanceof MemberType.Array arr && arr.flexible())) {
                        lay.spans.add(new Layout.Span(lm.name, lm.bitOffset, lm.end(), lm.location, lm));
                    }
                    cursor = lm.end();
                } else if (it instanceof InlineUnion u) {
                    int first = lay.members.size();
                    cursor = inlineUnion(u, cursor);
                    // flexible alternatives: union { DECLARE_FLEX_ARRAY(a); DECLARE_FLEX_ARRAY(b); } or, since
                    // 6.x kernels, union { u8 reserved_at_80[0x380]; DECLARE_FLEX_ARRAY(c); } at the end. Each starts at
                    // the union's start; the union's size is that of its fixed alternatives (C's sizeof).
                    for (int k = first; k < lay.members.size(); k++) {
                        Layout.LaidMember alt = lay.members.get(k);
                        if (!isFlexibleArray(alt)) continue;
                        if (!last) {
                            error(alt.location, "flexible array '" + alt.name + "' must be the last member (its union is not last)");
                        } else if (lay.flexible == null) {
                            lay.flexible = alt;
                        }
                    }
                }
            }
            long end = 0;
            for (Layout.Span sp : lay.spans) end = Math.max(end, sp.end());
            if (lay.flexible != null) end = Math.max(end, lay.flexible.bitOffset);
            return end;
        }

        long inlineUnion(InlineUnion u, long cursor) {
            long start = cursor;
            if (u.placement().isPresent()) {
                lay.positioned = true;
                Placement p = u.placement().get();
                if (p.range().isPresent()) {
                    error(p.range().get().location(), "a union is placed at a byte offset; remove the bit range");
                    return cursor;
                }
                if (Long.compareUnsigned(p.offset().value(), MAX_BYTES) >= 0) {
                    error(p.offset().location(), "offset " + p.offset().text() + " is too large");
                    return cursor;
                }
                start = p.offset().value() * 8;
            }
            String name = u.name().map(n -> n.text()).orElse("union_at_" + Long.toHexString(start));
            Layout.UnionInfo ui = new Layout.UnionInfo(name, start, u.tag().orElse(null), u.location(), true);
            int firstIndex = lay.members.size();
            long end = alternatives(ui, u.alternatives());
            if (u.alternatives().isEmpty()) {
                error(u.location(), "union '" + name + "' has no alternatives");
            }
            if (u.size().isPresent()) {
                Num size = u.size().get();
                if (size.value() == 0 || Long.compareUnsigned(size.value(), MAX_BYTES) > 0) {
                    error(size.location(), "size must be 1.." + Bits.hex(MAX_BYTES) + " bytes, not " + size.text());
                } else {
                    long limit = start + size.value() * 8;
                    for (int i = firstIndex; i < lay.members.size(); i++) {
                        Layout.LaidMember m = lay.members.get(i);
                        if (m.end() > limit) {
                            error(m.location, "'" + m.name + "' does not fit in union '" + name + "' of size " + size.text()
                                    + ": it ends at byte " + Bits.byteOffset((m.end() + 7) / 8),
                                    new Diagnostic.Related(size.location(), "size declared here"));
                        }
                    }
                    end = limit;
                }
            }
            ui.end = end;
            if (firstIndex < lay.members.size() && end > start) {
                lay.spans.add(new Layout.Span(name, start, end, u.location(), lay.members.get(firstIndex)));
            }
            return end;
        }

        /** Lays out alternatives from the union's start; returns the end of the longest. */
        long alternatives(Layout.UnionInfo ui, List<Item> alts) {
            long end = ui.start;
            for (Item alt : alts) {
                if (alt instanceof MemberDecl m) {
                    Layout.LaidMember lm = place(m, ui.start);
                    if (lm == null) continue;
                    if (!inUnion(lm, ui)) continue;
                    lm.union = ui;
                    lm.alternative = lm.name;
                    lm.directAlternative = true;
                    for (Attr a : m.attrs()) {
                        if (a instanceof Attr.WhenAttr w) lm.when = w.value();
                    }
                    lay.members.add(lm);
                    end = Math.max(end, lm.end());
                } else if (alt instanceof GroupAlt g) {
                    long cursor = ui.start;
                    if (g.members().isEmpty()) {
                        error(g.name().location(), "struct group '" + g.name().text() + "' is empty");
                    }
                    for (int k = 0; k < g.members().size(); k++) {
                        MemberDecl m = g.members().get(k);
                        Layout.LaidMember lm = place(m, cursor);
                        if (lm == null) continue;
                        if (isFlexibleArray(lm) && k < g.members().size() - 1) {
                            error(lm.location, "flexible array '" + lm.name + "' must be the last member of its group '" + g.name().text() + "'");
                        }
                        for (Attr a : m.attrs()) {
                            if (a instanceof Attr.WhenAttr) {
                                error(a.location(), "'when' goes on the group: struct " + g.name().text() + " when V { ... }");
                            }
                        }
                        if (!inUnion(lm, ui)) continue;
                        lm.union = ui;
                        lm.alternative = g.name().text();
                        lm.when = g.when().orElse(null);
                        lay.members.add(lm);
                        cursor = lm.end();
                        end = Math.max(end, lm.end());
                    }
                }
            }
            return end;
        }

        boolean inUnion(Layout.LaidMember lm, Layout.UnionInfo ui) {
            if (lm.bitOffset < ui.start) {
                error(lm.location, "'" + lm.name + "' starts before its union '" + ui.name + "' (which starts at "
                        + position(ui.start) + ")");
                return false;
            }
            if (!isFlexibleArray(lm) && endsFlexible(lm)) nestedFlexible(lm, "is a union alternative");
            return true;
        }

        static boolean isFlexibleArray(Layout.LaidMember lm) {
            return lm.type instanceof MemberType.Array a && a.flexible();
        }

        long layoutUnionDecl() {
            Layout.UnionInfo ui = new Layout.UnionInfo(s.name().text(), 0, null, s.location(), false);
            long end = alternatives(ui, s.items());
            ui.end = s.size().map(n -> n.value() * 8).orElse(roundUp(end));
            // a flexible alternative (union { u8 raw[0x40]; DECLARE_FLEX_ARRAY(...); }): from the start, as in C
            for (Layout.LaidMember m : lay.members) {
                if (isFlexibleArray(m)) {
                    lay.flexible = m;
                    break;
                }
            }
            return end;
        }

        boolean endsFlexible(Layout.LaidMember lm) {
            if (lm.type instanceof MemberType.Array a && a.flexible()) return true;
            MemberType t = lm.type instanceof MemberType.Array a ? a.element() : lm.type;
            if (t instanceof MemberType.StructRef && lm.decl != null) {
                Layout target = c.layouts.get(c.typeTargets.get(lm.decl.type().orElseThrow()));
                return target != null && target.flexible != null;
            }
            return false;
        }

        /** Places one member at its written position or at {@code cursor}; null (after reporting) when it cannot be placed. */
        Layout.LaidMember place(MemberDecl m, long cursor) {
            if (m.placement().isPresent()) lay.positioned = true;
            boolean reserved = m.isReserved();
            String name = m.name().text();
            long bitOff;
            MemberType type = null;
            int align = 1;
            if (m.placement().isPresent()) {
                Placement p = m.placement().get();
                long off = p.offset().value();
                if (Long.compareUnsigned(off, MAX_BYTES) >= 0) {
                    error(p.offset().location(), "offset " + p.offset().text() + " is too large");
                    return null;
                }
                if (p.range().isPresent()) {
                    Placement.BitRange r = p.range().get();
                    if (off % 4 != 0) {
                        error(p.offset().location(), "a bit range [hi:lo] is counted within a dword, so its byte offset must be a"
                                + " multiple of 4; " + p.offset().text() + " is not (its dword starts at " + Bits.byteOffset(off & ~3L) + ")");
                        return null;
                    }
                    long hi = r.hi().value();
                    long lo = r.lo().map(Num::value).orElse(hi);
                    if (Long.compareUnsigned(hi, 31) > 0 || Long.compareUnsigned(lo, 31) > 0) {
                        error(r.location(), "bit range " + r + " is out of range: bits of a dword are numbered 31..0"
                                + (Long.compareUnsigned(hi, 63) <= 0 && hi > 31 ? "; a 64-bit field is written '" + p.offset().text() + " " + name + " : u64'" : ""));
                        return null;
                    }
                    if (hi < lo) {
                        error(r.location(), "bit range " + r + " is reversed: the high bit comes first, [" + r.lo().get().text()
                                + ":" + r.hi().text() + "]");
                        return null;
                    }
                    int width = (int) (hi - lo + 1);
                    bitOff = off * 8 + (31 - hi);
                    if (m.type().isPresent()) {
                        TypeRef t = m.type().get();
                        long tw = t.arity() != TypeRef.Arity.SINGLE ? -1
                                : t.width().isPresent() ? t.width().get().value()
                                : t.builtin().map(b -> (long) b.bits).orElse(-1L);
                        if (tw != width) {
                            error(t.location(), "type ': " + t + "' does not match the bit range " + r + " (" + Words.plural(width, "bit") + ")");
                            return null;
                        }
                    }
                    type = new MemberType.Bits(width);
                } else {
                    bitOff = off * 8;
                    if (m.type().isEmpty()) {
                        error(m.name().location(), "'" + name + "' has a byte offset but no width: write a bit range ("
                                + p.offset().text() + " [31:0] " + name + ") or a type (" + p.offset().text() + " " + name + " : u32)");
                        return null;
                    }
                }
            } else {
                bitOff = cursor;
                if (m.type().isEmpty()) {
                    error(m.name().location(), "'" + name + "' has no width: write '" + name
                            + " : WIDTH' or place it with an offset and bit range");
                    return null;
                }
            }
            if (type == null) {
                TypeRef t = m.type().get();
                Resolved r = resolveType(t, reserved, bitOff);
                if (r == null) return null;
                type = r.type;
                align = r.align;
            }
            if (!reserved && !aligned(name, type, bitOff, align, m.name().location())) return null;
            if (name.equals("reserved")) name = "reserved_at_" + Long.toHexString(bitOff);
            return new Layout.LaidMember(m, name, bitOff, type, reserved, m.name().location());
        }

        record Resolved(MemberType type, int align) {
        }

        Resolved resolveType(TypeRef t, boolean reserved, long bitOff) {
            MemberType elem;
            int align = 1;
            boolean bytes = false;
            if (t.width().isPresent()) {
                Num w = t.width().get();
                if (w.value() == 0) {
                    error(w.location(), "a width is at least 1 bit");
                    return null;
                }
                if (Long.compareUnsigned(w.value(), 64) > 0) {
                    if (reserved && t.arity() == TypeRef.Arity.SINGLE && Long.compareUnsigned(w.value(), MAX_BYTES * 8) <= 0) {
                        return new Resolved(Bits.reservedSpan(w.value(), bitOff), 1);
                    }
                    // mlx5_ifc.h writes byte strings as wide fields (u8 src_ip[0x80]): they are byte arrays
                    if (t.arity() == TypeRef.Arity.SINGLE && w.value() % 8 == 0 && bitOff % 8 == 0
                            && Long.compareUnsigned(w.value(), MAX_BYTES * 8) <= 0) {
                        return new Resolved(new MemberType.Bytes((int) (w.value() / 8)), 8);
                    }
                    error(w.location(), "a bit field is 1..64 bits wide, not " + w.text()
                            + (t.arity() == TypeRef.Arity.SINGLE && w.value() % 8 == 0
                            ? " (wider fields are byte arrays, which start on a byte boundary; this one starts at " + position(bitOff) + ")"
                            : t.arity() != TypeRef.Arity.SINGLE ? "; array elements are bit fields" : ""));
                    return null;
                }
                elem = new MemberType.Bits((int) w.value());
            } else if (t.builtin().isPresent()) {
                int n = t.builtin().get().bits;
                elem = new MemberType.Bits(n);
                align = Math.min(n, 32);
                bytes = n == 8;
            } else {
                Layout target = c.layouts.get(c.typeTargets.get(t));
                if (target == null) {
                    ok = false; // the target's own errors are reported where it is declared
                    return null;
                }
                if (target.flexible != null && t.arity() != TypeRef.Arity.SINGLE) {
                    diags.add(Diagnostic.warning(t.location(), "'" + t.name().get() + "' ends in a flexible array, which is ignored"
                            + " in its array elements (each element is its fixed part, as in C)"));
                }
                elem = new MemberType.StructRef(c.qualifiedName(target.decl), target.sizeBits);
                align = 8;
            }
            return switch (t.arity()) {
                case SINGLE -> new Resolved(elem, align);
                case FIXED -> {
                    io.prmkit.dsl.ast.ValueRef ref = t.count().get();
                    long n;
                    if (ref instanceof Num num) {
                        n = num.value();
                    } else {
                        Compilation.Value v = c.value((io.prmkit.dsl.ast.QName) ref, c.fileOf.get(s), null);
                        if (!v.found()) {
                            if (v.miss() != Compilation.Miss.REPORTED) error(ref.location(), v.miss() == Compilation.Miss.UNKNOWN
                                    ? "unknown array count '" + ref + "': write an integer or a named constant" : v.error());
                            else ok = false;
                            yield null;
                        }
                        n = v.value();
                    }
                    if (n == 0 || Long.compareUnsigned(n, MAX_ARRAY) > 0) {
                        error(ref.location(), "array count must be 1.." + Bits.hex(MAX_ARRAY) + ", not " + ref
                                + (ref instanceof Num ? "" : " (" + Long.toUnsignedString(n) + ")"));
                        yield null;
                    }
                    yield new Resolved(bytes ? new MemberType.Bytes((int) n) : new MemberType.Array(elem, (int) n, false), align);
                }
                case FLEXIBLE -> new Resolved(new MemberType.Array(elem, 0, true), align);
            };
        }

        boolean aligned(String name, MemberType type, long bitOff, int align, SourceLocation at) {
            if (bitOff % align != 0) {
                String need = switch (align) {
                    case 8 -> "on a byte boundary";
                    case 16 -> "at an even byte offset";
                    default -> "on a dword boundary";
                };
                error(at, "'" + name + "' must start " + need + "; it starts at " + position(bitOff));
                return false;
            }
            if (type instanceof MemberType.Bits b) {
                return bitsAligned(name, b.width(), bitOff, at, "");
            }
            if (type instanceof MemberType.Bytes && bitOff % 8 != 0) {
                error(at, "byte array '" + name + "' must start on a byte boundary; it starts at " + position(bitOff));
                return false;
            }
            if (type instanceof MemberType.StructRef && bitOff % 8 != 0) {
                error(at, "'" + name + "' must start on a byte boundary; it starts at " + position(bitOff));
                return false;
            }
            if (type instanceof MemberType.Array a) {
                if (a.element() instanceof MemberType.StructRef && bitOff % 8 != 0) {
                    error(at, "'" + name + "' must start on a byte boundary; it starts at " + position(bitOff));
                    return false;
                }
                if (a.element() instanceof MemberType.Bits b) {
                    int w = b.width();
                    if (w >= 32 && w % 32 != 0) {
                        error(at, "elements of '" + name + "' are " + w + " bits wide, so they cannot all start on a dword boundary");
                        return false;
                    }
                    int n = a.flexible() ? 32 : Math.min(a.count(), 32); // offsets mod 32 repeat within 32 elements
                    for (int i = 0; i < n; i++) {
                        if (!bitsAligned(name, w, bitOff + (long) i * w, at, " element " + i)) return false;
                    }
                }
            }
            return true;
        }

        boolean bitsAligned(String name, int width, long bitOff, SourceLocation at, String element) {
            if (width >= 32 && bitOff % 32 != 0) {
                error(at, "'" + name + "'" + element + " is " + width + " bits wide, so it must start on a dword boundary; it starts at "
                        + position(bitOff));
                return false;
            }
            if (width < 32 && (bitOff % 32) + width > 32) {
                error(at, "'" + name + "'" + element + " crosses a dword boundary (" + Bits.span(bitOff, bitOff + width)
                        + "); a field narrower than 32 bits must lie within one dword");
                return false;
            }
            return true;
        }

        static String position(long bit) {
            return bit % 8 == 0 && (bit % 32 == 0) ? "byte " + Bits.byteOffset(bit / 8) : Bits.at(bit);
        }
    }
}
