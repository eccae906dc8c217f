package dev.lomicontrol.tools;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which tools one helper lists and serves: the chosen {@link Toolset toolsets} ({@link Toolset#CORE}
 * always among them) and, with {@code readOnly}, only the tools that change nothing. A tool outside
 * the selection is neither listed nor served; a call to it is refused with {@link #refusal} naming
 * the option that enables it.
 *
 * @param toolsets the served toolsets, core included
 * @param readOnly whether only read-only tools ({@code readOnlyHint}) are served
 */
public record ToolSelection(Set<Toolset> toolsets, boolean readOnly) {

    /** The option that chooses the toolsets, and its environment variable. */
    public static final String OPTION = "--toolsets";

    public static final String ENVIRONMENT = "LOMI_TOOLSETS";

    /** The option that serves only read-only tools, and its environment variable. */
    public static final String READ_ONLY_OPTION = "--read-only";

    public static final String READ_ONLY_ENVIRONMENT = "LOMI_READ_ONLY";

    public ToolSelection {
        EnumSet<Toolset> copy = EnumSet.of(Toolset.CORE);
        copy.addAll(toolsets);
        toolsets = Collections.unmodifiableSet(copy);
    }

    /** Every tool: what a helper started without {@code --toolsets} serves. */
    public static ToolSelection all() {
        return new ToolSelection(EnumSet.allOf(Toolset.class), false);
    }

    /**
     * The selection a {@code --toolsets} value names: {@code all}, or toolset names separated by
     * commas (spaces around them allowed; {@code core} may be left out).
     *
     * @throws IllegalArgumentException naming the unknown word and every valid one
     */
    public static ToolSelection parse(String list, boolean readOnly) {
        EnumSet<Toolset> chosen = EnumSet.noneOf(Toolset.class);
        for (String word : list.split(",", -1)) {
            String name = word.trim();
            if (name.equals("all")) {
                chosen.addAll(EnumSet.allOf(Toolset.class));
                continue;
            }
            Optional<Toolset> toolset = Toolset.named(name);
            if (toolset.isEmpty()) {
                throw new IllegalArgumentException("unknown toolset '" + name + "' in " + OPTION + " " + list
                        + "; valid: all or a comma-separated list of " + Toolset.names());
            }
            chosen.add(toolset.get());
        }
        return new ToolSelection(chosen, readOnly);
    }

    /** Whether every toolset is chosen and writes are allowed (the default). */
    public boolean isAll() {
        return !readOnly && toolsets.size() == Toolset.values().length;
    }

    /** Whether this selection serves {@code spec} (of {@code toolset}). */
    public boolean serves(ToolSpec<?> spec, Toolset toolset) {
        return toolsets.contains(toolset) && (!readOnly || spec.hints().readOnly());
    }

    /** The option words that start a helper with this selection (none for {@link #all()}). */
    public List<String> arguments() {
        List<String> words = new ArrayList<>();
        if (toolsets.size() < Toolset.values().length) {
            words.add(OPTION);
            words.add(names());
        }
        if (readOnly) {
            words.add(READ_ONLY_OPTION);
        }
        return words;
    }

    /** The chosen toolsets as {@code --toolsets} takes them: {@code all} or names in catalog order. */
    public String names() {
        return toolsets.size() == Toolset.values().length
                ? "all"
                : toolsets.stream().map(Toolset::wireName).collect(Collectors.joining(","));
    }

    /** What a call to {@code spec} (of {@code toolset}), which this selection does not serve, is told. */
    public String refusal(ToolSpec<?> spec, Toolset toolset) {
        if (!toolsets.contains(toolset)) {
            return spec.name() + " is in the toolset '" + toolset.wireName() + "', which this helper does not serve ("
                    + OPTION + " " + names() + "); add " + toolset.wireName() + " to " + OPTION
                    + " in the client's configuration (lomi-control console client register CLIENT " + OPTION + " "
                    + names() + "," + toolset.wireName() + ") and restart the client";
        }
        return spec.name() + " changes state and this helper serves only read-only tools (" + READ_ONLY_OPTION
                + "); remove " + READ_ONLY_OPTION + " from the client's configuration and restart the client";
    }
}
