package io.prmkit.dsl.passes;

import io.prmkit.dsl.Diagnostic;
import java.util.List;

/**
 * One named step of semantic analysis. A pass reads the ASTs and what earlier passes recorded in
 * the {@link Compilation}, records its own results there, and returns its diagnostics. Passes
 * must tolerate earlier errors: what could not be resolved is skipped, not reported twice.
 */
public interface Pass {
    /** A short stable name, used by {@code stopAfter} in tests and in {@link Passes#names()}. */
    String name();

    List<Diagnostic> run(Compilation c);

    /**
     * Whether the pass runs after an earlier pass reported an error. Analysis passes do, to report
     * as much as possible at once; a pass that builds the IR does not, since the IR's records
     * enforce invariants that only an error-free spec is sure to meet.
     */
    default boolean runsAfterErrors() {
        return true;
    }
}
