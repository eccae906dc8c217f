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
 * @param writableCaches directories every shell may write, shared by all projects (the admin's explicit
 *                       opt-in, none by default: each project gets caches of its own instead, see
 *                       {@link TerminalSandbox}); created 0700 when missing. None may be the home, nor
 *                       be, contain or lie inside a {@link #TOOL_LOCATIONS tool location} or a hidden
 *                       location (security review 2026-12-06, N5)
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

    /**
     * Tool binaries, wrapper distributions, JDKs, init scripts and build settings under the home
     * that run (or steer what runs) outside the sandbox: never writable from a shell, whatever the
     * admin lists in {@code writable-caches} (security review 2026-12-06, N5).
     */
    public static final List<String> TOOL_LOCATIONS = List.of(
            ".m2/wrapper",
            ".m2/settings.xml",
            ".m2/settings-security.xml",
            ".m2/toolchains.xml",
            ".mavenrc",
            ".gradle/init.d",
            ".gradle/init.gradle",
            ".gradle/init.gradle.kts",
            ".gradle/jdks",
            ".gradle/wrapper",
            ".gradle/gradle.properties",
            ".cargo/bin",
            ".cargo/config",
            ".cargo/config.toml",
            ".cargo/env",
            ".rustup",
            ".local/bin",
            "bin");

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
        requireSafelyWritable(home, writableCaches, hidden);
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

    /** The default sandbox for {@code home}: on, no shared writable cache, network on, .git read-only. */
    public static SandboxPolicy defaults(Path home) {
        return new SandboxPolicy(true, home, List.of(), List.of(), false, true);
    }

    public SandboxPolicy withWritableCaches(List<Path> shared) {
        return new SandboxPolicy(enabled, home, shared, hidden, gitWritable, network, passedVariables);
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

    /**
     * Refuses a shared writable directory that is the home or that is, contains or lies inside a
     * tool location or a hidden location: a shell could plant there what runs outside the sandbox
     * (or create a hidden location before it exists and so is not covered).
     */
    private static void requireSafelyWritable(Path home, List<Path> writable, List<Path> hidden) {
        List<Path> never = new ArrayList<>();
        TOOL_LOCATIONS.forEach(name -> never.add(home.resolve(name)));
        SECRET_LOCATIONS.forEach(name -> never.add(home.resolve(name)));
        CLIENT_FILES.forEach(name -> never.add(home.resolve(name)));
        never.addAll(hidden);
        for (Path path : writable) {
            Path dir = path.normalize();
            if (home.normalize().startsWith(dir)) {
                throw new IllegalArgumentException("lomi.terminal.sandbox.writable-caches: " + path
                        + " is or contains the home; shells could rewrite your dotfiles and tools");
            }
            for (Path location : never) {
                if (location.startsWith(dir) || dir.startsWith(location)) {
                    throw new IllegalArgumentException("lomi.terminal.sandbox.writable-caches: " + path
                            + " overlaps " + location
                            + ", which must never be writable from a shell (tool binaries, init scripts, build"
                            + " settings, secrets, lomi-control's own build); list a narrower directory (such as"
                            + " ~/.m2/repository) or none: each project has caches of its own");
                }
            }
        }
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
