package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ClientConfiguration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the admin decided about terminal sandboxing (SPEC §10 "Terminal sandbox").
 *
 * @param enabled        false only when the admin turned the sandbox off explicitly: shells then
 *                       run as the user with nothing hidden, and creating one needs the
 *                       {@code terminal.unsandboxed} scope
 * @param home           the user's home; the secret locations and client files are relative to it
 * @param writableCaches build-tool cache directories the shell may write (created 0700 when missing)
 * @param hidden         more locations that are hidden on top of {@link #SECRET_LOCATIONS} and
 *                       {@link #CLIENT_FILES} (files and directories, absolute)
 * @param gitWritable    true lets the shell write the project's {@code .git} (hooks and config it
 *                       writes then run outside the sandbox when the user next uses git there)
 * @param network        false gives the shell its own network namespace with loopback only
 * @param passedVariables  more variables of the broker's environment every shell inherits, on top of
 *                       the built-in allow-list (a name, or a prefix ending in {@code *}); the admin's
 *                       setting, applied whether the sandbox is on or off
 */
public record SandboxPolicy(
        boolean enabled,
        Path home,
        List<Path> writableCaches,
        List<Path> hidden,
        boolean gitWritable,
        boolean network,
        List<String> passedVariables) {

    /** Build-tool caches writable by default, relative to the home. */
    public static final List<String> DEFAULT_CACHES = List.of(".cache", ".m2", ".npm", ".gradle", ".cargo");

    /** Credential locations that are always hidden, relative to the home. */
    public static final List<String> SECRET_LOCATIONS = List.of(
            ".ssh",
            ".aws",
            ".azure",
            ".gnupg",
            ".netrc",
            ".config/gh",
            ".git-credentials",
            ".config/git/credentials",
            ".kube",
            ".docker/config.json",
            ".terraformrc",
            ".terraform.d/credentials.tfrc.json",
            ".pgpass",
            ".npmrc",
            ".pypirc",
            ".config/gcloud");

    /** The user-level MCP client files {@code client register} writes and their backups, relative to the home (ClientFilesSandboxedTests keeps it equal to the console's client table). */
    public static final List<String> CLIENT_FILES = List.of(
            ".claude.json", ".claude.json.lomi-backup",
            ".config/Claude/claude_desktop_config.json", ".config/Claude/claude_desktop_config.json.lomi-backup",
            ".cursor/mcp.json", ".cursor/mcp.json.lomi-backup",
            ".config/Code/User/mcp.json", ".config/Code/User/mcp.json.lomi-backup",
            ".gemini/settings.json", ".gemini/settings.json.lomi-backup",
            ".codex/config.toml", ".codex/config.toml.lomi-backup",
            ".codeium/windsurf/mcp_config.json", ".codeium/windsurf/mcp_config.json.lomi-backup",
            ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
                    ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json.lomi-backup",
            ".config/zed/settings.json", ".config/zed/settings.json.lomi-backup",
            ".config/opencode/opencode.json", ".config/opencode/opencode.json.lomi-backup",
            ".config/opencode/opencode.jsonc", ".config/opencode/opencode.jsonc.lomi-backup");

    /**
     * Entries of the project that stay read-only inside the sandbox: MCP client files (and {@code .git}
     * unless opened). The same list the file, editor and git tools refuse to write
     * ({@link ClientConfiguration#PROJECT_ENTRIES}).
     */
    public static final List<String> PROJECT_CLIENT_FILES = ClientConfiguration.PROJECT_ENTRIES;

    public SandboxPolicy {
        Objects.requireNonNull(home, "home");
        if (!home.isAbsolute()) {
            throw new IllegalArgumentException("the home must be absolute, not " + home);
        }
        writableCaches = absolute(writableCaches, "writable cache");
        hidden = absolute(hidden, "hidden location");
        passedVariables = List.copyOf(passedVariables);
    }

    /** A policy that passes only the built-in allow-list of variables. */
    public SandboxPolicy(
            boolean enabled,
            Path home,
            List<Path> writableCaches,
            List<Path> hidden,
            boolean gitWritable,
            boolean network) {
        this(enabled, home, writableCaches, hidden, gitWritable, network, List.of());
    }

    /** The default sandbox for {@code home}: on, the default caches, network on, .git read-only. */
    public static SandboxPolicy defaults(Path home) {
        List<Path> caches = new ArrayList<>();
        DEFAULT_CACHES.forEach(name -> caches.add(home.resolve(name)));
        return new SandboxPolicy(true, home, caches, List.of(), false, true);
    }

    /** The admin's explicit opt-out: shells run unsandboxed. */
    public static SandboxPolicy off(Path home) {
        return new SandboxPolicy(false, home, List.of(), List.of(), false, true);
    }

    public SandboxPolicy withEnabled(boolean on) {
        return new SandboxPolicy(on, home, writableCaches, hidden, gitWritable, network, passedVariables);
    }

    public SandboxPolicy withGitWritable(boolean writable) {
        return new SandboxPolicy(enabled, home, writableCaches, hidden, writable, network, passedVariables);
    }

    public SandboxPolicy withNetwork(boolean on) {
        return new SandboxPolicy(enabled, home, writableCaches, hidden, gitWritable, on, passedVariables);
    }

    public SandboxPolicy withHidden(List<Path> more) {
        return new SandboxPolicy(enabled, home, writableCaches, more, gitWritable, network, passedVariables);
    }

    /** Every location hidden for this home: the secret locations, the client files and the admin's extra list. */
    List<Path> hiddenLocations() {
        List<Path> all = new ArrayList<>();
        SECRET_LOCATIONS.forEach(name -> all.add(home.resolve(name)));
        CLIENT_FILES.forEach(name -> all.add(home.resolve(name)));
        all.addAll(hidden);
        return all;
    }

    private static List<Path> absolute(List<Path> paths, String what) {
        for (Path path : paths) {
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("a " + what + " must be an absolute path, not " + path);
            }
        }
        return List.copyOf(paths);
    }
}
