package dev.lomicontrol.core;

import java.util.regex.Pattern;

/**
 * A grant scope, e.g. {@code terminal.execute}: what a session must hold for a tool (or one variant
 * of a tool's input). {@link #NONE} for the helper's own tools, which need none.
 */
public record Scope(String name) {

    private static final Pattern FORM = Pattern.compile("|[a-z]+(\\.[a-z]+(_[a-z]+)*)+");

    public static final Scope NONE = new Scope("");

    public Scope {
        if (!FORM.matcher(name).matches()) {
            throw new IllegalArgumentException("not a scope name: " + name);
        }
    }

    public static Scope of(String name) {
        return name.isEmpty() ? NONE : new Scope(name);
    }

    public boolean isNone() {
        return name.isEmpty();
    }

    @Override
    public String toString() {
        return name;
    }
}
