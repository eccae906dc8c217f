package dev.lomicontrol.tools;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A named group of tools that a client can be given ({@code lomi-control --mcp --toolsets LIST}):
 * each tool belongs to exactly one, declared where its domain's tools are listed ({@link ToolCatalog}).
 * {@link #CORE} (status, connect, workspaces, operations, events) is always served.
 */
public enum Toolset {
    CORE,
    LAYOUT,
    TERMINAL,
    FILES,
    EDITOR,
    GIT,
    ARTIFACTS,
    SETTINGS,
    CHAT,
    BROWSER,
    ANDROID,
    EPISODES;

    /** The name on the command line and in the docs: lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The toolset of this name (exact, lower case); empty for any other word. */
    public static Optional<Toolset> named(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
    }

    /** Every name, comma-separated, in catalog order: what an unknown name is answered with. */
    public static String names() {
        return Arrays.stream(values()).map(Toolset::wireName).collect(Collectors.joining(","));
    }
}
