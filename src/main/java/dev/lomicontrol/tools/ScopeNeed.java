package dev.lomicontrol.tools;

import dev.lomicontrol.core.Scope;

/**
 * A scope one variant of a tool's input needs beyond the tool's own (a file change that trashes
 * needs {@code files.trash}), and the refusal a session without it gets (SCOPE_DENIED).
 */
public record ScopeNeed(Scope scope, String refusal) {

    public ScopeNeed {
        if (scope.isNone() || refusal.isBlank()) {
            throw new IllegalArgumentException("a scope need names a scope and its refusal");
        }
    }

    public static ScopeNeed of(String scope, String refusal) {
        return new ScopeNeed(Scope.of(scope), refusal);
    }

    /** For a tool that needs {@code scopes} besides its own whatever its input ("this call also needs …"). */
    public static <I> java.util.function.Function<I, java.util.List<ScopeNeed>> always(String... scopes) {
        java.util.List<ScopeNeed> needs = java.util.Arrays.stream(scopes)
                .map(scope -> of(scope, dev.lomicontrol.core.ErrorMessages.missingScope("this call also", scope)))
                .toList();
        return input -> needs;
    }
}
