package io.prmkit.dsl.diff;

import java.util.List;

/** All differences between two layouts, in a stable order (by owner, then by position). */
public record DiffReport(List<Change> changes) {
    public DiffReport {
        changes = List.copyOf(changes);
    }

    /** Whether anything built against the old layout may misbehave with the new one. */
    public boolean isBreaking() {
        return changes.stream().anyMatch(Change::breaking);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public long breakingCount() {
        return changes.stream().filter(Change::breaking).count();
    }

    public long additiveCount() {
        return changes.size() - breakingCount();
    }
}
