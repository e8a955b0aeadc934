package io.prmkit.dsl.diff;

import io.prmkit.dsl.Words;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One difference between two layouts.
 *
 * @param kind     what changed
 * @param owner    the qualified structure, enum or constant name ({@code mlx5.qpc})
 * @param name     the member or enum value concerned (old name for a rename), or "" for the owner itself
 * @param newName  the new name of a renamed member, else ""
 * @param before   the member's old bits, when a member is concerned and existed
 * @param after    the member's new bits, when a member is concerned and exists
 * @param oldValue the old size in bytes, enum value or constant value, when that is what changed
 * @param newValue the new one
 * @param oldText  a member attribute's old form ({@code p.e}, {@code rw}, {@code range 1..63}), a join's parts
 *                 ({@code access_mode_4_2 [4:2], access_mode_1_0 [1:0]}), a WQE's segments or a WQE rule's
 *                 expression, as the spec writes them; or "" (none, or not such a change)
 * @param newText  its new form, or ""
 * @param breaking whether code or data built against the old layout can be wrong with the new one
 */
public record Change(Kind kind, String owner, String name, String newName, Optional<Bits> before, Optional<Bits> after,
                     OptionalLong oldValue, OptionalLong newValue, String oldText, String newText, boolean breaking) {

    /** A change that is not about a member's attributes. */
    public Change(Kind kind, String owner, String name, String newName, Optional<Bits> before, Optional<Bits> after,
                  OptionalLong oldValue, OptionalLong newValue, boolean breaking) {
        this(kind, owner, name, newName, before, after, oldValue, newValue, "", "", breaking);
    }

    public enum Kind {
        STRUCT_ADDED, STRUCT_REMOVED, KIND_CHANGED, SIZE_CHANGED,
        FIELD_ADDED, FIELD_REMOVED, FIELD_MOVED, FIELD_RESIZED, FIELD_RETYPED, FIELD_RENAMED,
        FIELD_ENUM_CHANGED, FIELD_FLAGS_CHANGED, FIELD_ACCESS_CHANGED, FIELD_CONSTRAINTS_CHANGED,
        JOIN_ADDED, JOIN_REMOVED, JOIN_CHANGED,
        ENUM_ADDED, ENUM_REMOVED, ENUM_RENAMED, ENUM_VALUE_ADDED, ENUM_VALUE_REMOVED, ENUM_VALUE_CHANGED,
        CONST_ADDED, CONST_REMOVED, CONST_CHANGED,
        WQE_ADDED, WQE_REMOVED, WQE_CHANGED, WQE_RULE_ADDED, WQE_RULE_REMOVED, WQE_RULE_CHANGED;

        /** Lower-case words, e.g. "field moved". */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        }
    }

    /** Where a member sits: bit offset from the MSB of byte 0 and width in bits (0 for a flexible array). */
    public record Bits(long offset, long width) {
        public Bits {
            if (offset < 0 || width < 0) throw new IllegalArgumentException("negative bits: " + offset + "/" + width);
        }

        /** {@code 0x04 [23:16]} for a field within one dword, {@code bytes 0x10.. (flexible array)}, else {@code bit 0x120 +0x80}. */
        public String prm() {
            if (width == 0 && offset % 8 == 0) return String.format("bytes 0x%02x.. (flexible array)", offset / 8);
            long inDword = offset & 31;
            if (width > 0 && inDword + width <= 32) return io.prmkit.dsl.ir.PrmPosition.span(offset, offset + width);
            return String.format("bit 0x%x +0x%x", offset, width);
        }
    }

    public Change {
        Objects.requireNonNull(kind, "kind == null");
        Objects.requireNonNull(owner, "owner == null");
        Objects.requireNonNull(name, "name == null");
        Objects.requireNonNull(newName, "newName == null");
        Objects.requireNonNull(before, "before == null");
        Objects.requireNonNull(after, "after == null");
        Objects.requireNonNull(oldValue, "oldValue == null");
        Objects.requireNonNull(newValue, "newValue == null");
        Objects.requireNonNull(oldText, "oldText == null");
        Objects.requireNonNull(newText, "newText == null");
    }

    /** The subject as people write it: {@code mlx5.qpc.state}, or just the owner. */
    public String subject() {
        return name.isEmpty() ? owner : owner + "." + name;
    }

    /** A one-line description without the subject, e.g. "moved from 0x04 [23:16] to 0x08 [23:16]". */
    public String description() {
        return switch (kind) {
            case STRUCT_ADDED -> "added (" + hex(newValue) + " bytes)";
            case STRUCT_REMOVED -> "removed";
            case KIND_CHANGED -> "changed between struct and union";
            case SIZE_CHANGED -> "size " + hex(oldValue) + " -> " + hex(newValue) + " bytes";
            case FIELD_ADDED -> "added at " + after.orElseThrow().prm() + widthText(after);
            case FIELD_REMOVED -> "removed from " + before.orElseThrow().prm() + widthText(before);
            case FIELD_MOVED -> "moved from " + before.orElseThrow().prm() + " to " + after.orElseThrow().prm();
            case FIELD_RESIZED -> "resized from " + before.orElseThrow().width() + " to " + Words.plural(after.orElseThrow().width(), "bit");
            case FIELD_RETYPED -> "type changed at " + after.orElseThrow().prm();
            case FIELD_RENAMED -> "renamed to " + newName + " at " + after.orElseThrow().prm() + widthText(after);
            case FIELD_ENUM_CHANGED, FIELD_FLAGS_CHANGED -> binding(kind == Kind.FIELD_ENUM_CHANGED ? "enum" : "flags");
            case FIELD_ACCESS_CHANGED -> "access " + oldText + " -> " + newText + (breaking ? " (its setters move to the Device class)" : "");
            case FIELD_CONSTRAINTS_CHANGED -> "constraints " + (oldText.isEmpty() ? "none" : oldText) + " -> " + (newText.isEmpty() ? "none" : newText)
                    + (breaking ? " (validate() refuses values it accepted)" : "");
            case ENUM_ADDED -> "enum added";
            case ENUM_REMOVED -> "enum removed";
            case ENUM_RENAMED -> "enum renamed to " + newName;
            case ENUM_VALUE_ADDED -> "value added: " + hex(newValue);
            case ENUM_VALUE_REMOVED -> "value removed (was " + hex(oldValue) + ")";
            case ENUM_VALUE_CHANGED, CONST_CHANGED -> "value " + hex(oldValue) + " -> " + hex(newValue);
            case CONST_ADDED -> "constant added: " + hex(newValue);
            case CONST_REMOVED -> "constant removed (was " + hex(oldValue) + ")";
            case JOIN_ADDED -> "join added: " + newText;
            case JOIN_REMOVED -> "join removed (was " + oldText + ")";
            case JOIN_CHANGED -> "join " + oldText + " -> " + newText;
            case WQE_ADDED -> "WQE added: " + newText;
            case WQE_REMOVED -> "WQE removed (was " + oldText + ")";
            case WQE_CHANGED -> oldText + " -> " + newText;
            case WQE_RULE_ADDED -> "rule added: " + newText + (breaking ? " (check() reports WQEs it passed)" : "");
            case WQE_RULE_REMOVED -> "rule removed (was " + oldText + ")";
            case WQE_RULE_CHANGED -> "rule " + oldText + " -> " + newText;
        };
    }

    private String binding(String what) {
        if (oldText.isEmpty()) return what + " binding added: " + newText;
        if (newText.isEmpty()) return what + " binding removed (was " + oldText + ")";
        return what + " binding " + oldText + " -> " + newText;
    }

    private static String widthText(Optional<Bits> b) {
        long w = b.orElseThrow().width();
        return w == 0 ? "" : ", " + Words.plural(w, "bit");
    }

    private static String hex(OptionalLong v) {
        return v.isPresent() ? "0x" + Long.toHexString(v.getAsLong()) : "?";
    }
}
