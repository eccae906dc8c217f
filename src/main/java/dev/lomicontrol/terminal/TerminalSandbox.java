package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Builds the bubblewrap command line that confines a terminal's shell (SPEC §10 "Terminal
 * sandbox"): the whole filesystem read-only; a private {@code /tmp} and {@code /run}; the project
 * folder and the project's own caches writable (see {@link #PROJECT_CACHES}), and the shared cache
 * directories the admin opted into; {@code .git} and the MCP client files of the project
 * read-only; the broker's data and runtime directories, the secret locations and the client files
 * hidden, and so are the files {@link SecretFiles} names (the chat connections' key files) (an empty
 * read-only directory or {@code /dev/null} in their place); new pid, ipc and user
 * namespaces (no nested ones), no capabilities, killed with the broker. Works the same for root:
 * hiding and read-only mounts do not depend on file permissions.
 */
public final class TerminalSandbox {

    /** What an admin installs to get sandboxed terminals (Debian and Ubuntu). */
    public static final String INSTALL = "apt-get install bubblewrap";

    /**
     * The directory of the broker's data directory that holds each project's caches (security
     * review 2026-12-06, N5): {@code sandbox-caches/<key>/} per project folder (the key is a hash of
     * its real path), mounted writable at {@link #CACHE_MOUNT} in that project's shells only, so
     * nothing a shell writes there reaches another project or anything outside the sandbox. The
     * user's own caches stay readable (read-only) and serve as a read-only lower layer where the
     * tool has one (Maven's {@code maven.repo.local.tail}, Gradle's {@code GRADLE_RO_DEP_CACHE}).
     */
    public static final String PROJECT_CACHES = "sandbox-caches";

    /** Where a shell sees its project's caches (a fresh tmpfs {@code /run} holds the mount point). */
    public static final String CACHE_MOUNT = "/run/lomi-project-cache";

    private final SandboxPolicy policy;
    private final List<Path> brokerPrivate;
    private final SecretFiles secretFiles;
    private final java.util.function.Supplier<Optional<Path>> bubblewrap;
    private final Optional<Path> projectCaches;
    private volatile boolean probed;

    /**
     * Files holding secrets that other parts of the broker know of (the chat connections' key files),
     * asked at every shell start, so a file configured after the broker started is hidden too.
     */
    @FunctionalInterface
    public interface SecretFiles {
        /** The files (or directories) to hide now (absolute; missing ones are skipped). */
        List<Path> now();
    }

    /**
     * @param brokerPrivate the broker's own directories (data and runtime), hidden from every shell
     */
    public TerminalSandbox(SandboxPolicy policy, List<Path> brokerPrivate) {
        this(policy, brokerPrivate, List::of, TerminalSandbox::installedBubblewrap);
    }

    /** As {@link #TerminalSandbox(SandboxPolicy, List)} with {@code bubblewrap} finding the executable (tests: a host without it). */
    public TerminalSandbox(
            SandboxPolicy policy, List<Path> brokerPrivate, java.util.function.Supplier<Optional<Path>> bubblewrap) {
        this(policy, brokerPrivate, List::of, bubblewrap);
    }

    /**
     * @param brokerPrivate the broker's own directories (data and runtime), hidden from every shell
     * @param secretFiles   more files hidden from every shell, asked at each start (a failure there fails the start)
     * @param bubblewrap    finds the bubblewrap executable ({@link #installedBubblewrap})
     */
    public TerminalSandbox(
            SandboxPolicy policy,
            List<Path> brokerPrivate,
            SecretFiles secretFiles,
            java.util.function.Supplier<Optional<Path>> bubblewrap) {
        this(policy, brokerPrivate, secretFiles, bubblewrap, Optional.empty());
    }

    /**
     * As the four-argument constructor, with {@code projectCaches} the directory (inside one of
     * {@code brokerPrivate}) that holds each project's caches; without it shells get no writable
     * cache but the shared ones the admin listed.
     */
    public TerminalSandbox(
            SandboxPolicy policy,
            List<Path> brokerPrivate,
            SecretFiles secretFiles,
            java.util.function.Supplier<Optional<Path>> bubblewrap,
            Optional<Path> projectCaches) {
        this.policy = policy;
        this.brokerPrivate = List.copyOf(brokerPrivate);
        this.secretFiles = secretFiles;
        this.bubblewrap = bubblewrap;
        this.projectCaches = projectCaches.map(dir -> dir.toAbsolutePath().normalize());
        this.projectCaches.ifPresent(dir -> {
            // hidden from every shell, so no project's shell reaches another project's caches by their path
            if (this.brokerPrivate.stream()
                    .noneMatch(hidden -> dir.startsWith(hidden.toAbsolutePath().normalize()))) {
                throw new IllegalArgumentException(
                        "the project caches " + dir + " must lie inside a hidden broker directory " + brokerPrivate);
            }
        });
    }

    /** The bubblewrap executable on PATH or in the usual directories. */
    public static Optional<Path> installedBubblewrap() {
        return ShellIntegration.executable("bwrap");
    }

    public SandboxPolicy policy() {
        return policy;
    }

    public boolean enabled() {
        return policy.enabled();
    }

    /** The warning every status shows while the admin has the sandbox off; empty while it is on. */
    public Optional<String> warning() {
        return policy.enabled()
                ? Optional.empty()
                : Optional.of(
                        "terminal sandbox OFF (lomi.terminal.sandbox.enabled=false): "
                                + "terminals run as you, can read the admin token and act as the admin; only sessions granted terminal.unsandboxed may create them");
    }

    /**
     * Checks that bubblewrap is installed and can create a sandbox on this host (a trial run, once
     * it succeeded); nothing to check while the sandbox is off.
     *
     * @throws LomiException HOST_UNQUALIFIED naming the package to install, or what bubblewrap said
     */
    public void requireUsable() {
        if (!policy.enabled()) {
            return;
        }
        Path bwrap = bwrap();
        if (probed) {
            return;
        }
        List<String> trial = new ArrayList<>(List.of(bwrap.toString()));
        trial.addAll(List.of(
                "--unshare-user",
                "--disable-userns",
                "--unshare-pid",
                "--unshare-ipc",
                "--die-with-parent",
                "--cap-drop",
                "ALL",
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "--tmpfs",
                "/tmp",
                "--",
                "true"));
        try {
            Process process = new ProcessBuilder(trial)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            process.getOutputStream().close();
            byte[] said = process.getInputStream().readNBytes(4096);
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw unqualified("bubblewrap did not start a sandbox within 10 s");
            }
            if (process.exitValue() != 0) {
                throw unqualified("bubblewrap cannot create a sandbox on this host: "
                        + new String(said, StandardCharsets.UTF_8).strip());
            }
            probed = true;
        } catch (IOException e) {
            throw unqualified("bubblewrap could not be run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unqualified("interrupted while trying bubblewrap");
        }
    }

    private Path bwrap() {
        return bubblewrap
                .get()
                .orElseThrow(() -> unqualified(
                        "terminals run sandboxed and bubblewrap is not installed; install it (" + INSTALL + ")"));
    }

    private static LomiException unqualified(String message) {
        return new LomiException(
                ErrorCode.HOST_UNQUALIFIED,
                message.contains(INSTALL)
                        ? message
                        : message + "; terminals need a working bubblewrap (" + INSTALL
                                + ") unless the admin turns the sandbox off");
    }

    /**
     * A shell command line wrapped in the sandbox; {@code guarded} are the project entries it
     * mounts read-only, {@code created} those of them that were placeholders created just now;
     * {@code environment} the variables that point the build tools at the project's caches.
     */
    record Wrapped(List<String> command, List<Path> guarded, List<Path> created, Map<String, String> environment) {}

    /**
     * Wraps {@code command} (unchanged while the sandbox is off). Protected project entries that do
     * not exist yet get an empty directory (0500) created in their place and mounted read-only, so
     * the shell cannot create them either; those placeholders are listed, and the caller removes
     * them once no sandbox uses them (the caller serialises calls for one project).
     */
    Wrapped wrap(List<String> command, Path projectRoot, Path cwd, Path integrationDirectory) {
        if (!policy.enabled()) {
            return new Wrapped(List.copyOf(command), List.of(), List.of(), Map.of());
        }
        List<String> args = new ArrayList<>(List.of(
                bwrap().toString(),
                "--unshare-user",
                "--disable-userns",
                "--unshare-pid",
                "--unshare-ipc",
                "--die-with-parent",
                "--cap-drop",
                "ALL",
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "--tmpfs",
                "/tmp",
                "--tmpfs",
                "/run"));
        if (!policy.network()) {
            args.add("--unshare-net");
        }
        resolverDirectory().ifPresent(dir -> bind(args, "--ro-bind", dir));
        real(policy.home()).ifPresent(home -> bind(args, "--ro-bind", home));
        for (Path cache : policy.writableCaches()) {
            createCache(cache);
            real(cache).ifPresent(dir -> bind(args, "--bind", dir));
        }
        Path root = real(projectRoot)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "the project folder " + projectRoot + " is gone"));
        Map<String, String> environment = new LinkedHashMap<>();
        if (projectCaches.isPresent()) {
            Path own = ProjectCaches.create(projectCaches.get(), root);
            args.addAll(List.of("--bind", own.toString(), CACHE_MOUNT));
            environment.putAll(ProjectCaches.environment(Path.of(CACHE_MOUNT), policy.home()));
        }
        bind(args, "--bind", root);
        List<Path> guarded = new ArrayList<>();
        List<Path> placeholders = new ArrayList<>();
        List<String> readOnly = new ArrayList<>(SandboxPolicy.PROJECT_CLIENT_FILES);
        if (!policy.gitWritable()) {
            readOnly.add(0, ".git");
        }
        for (String name : readOnly) {
            Path entry = root.resolve(name);
            guarded.add(entry);
            if (Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
                if (!Files.isSymbolicLink(entry)) {
                    bind(args, "--ro-bind", entry);
                }
                // a link's target is outside the project (read-only there) or inside it (a name of its own)
            } else {
                createPlaceholder(entry);
                bind(args, "--ro-bind", entry);
                placeholders.add(entry);
            }
        }
        Set<Path> hiddenDirectories = new LinkedHashSet<>();
        List<Path> toHide = new ArrayList<>(policy.hiddenLocations());
        toHide.addAll(brokerPrivate);
        toHide.addAll(secretFiles.now());
        for (Path location : toHide) {
            Optional<Path> target = real(location);
            if (target.isEmpty()) {
                continue;
            }
            if (Files.isDirectory(target.get())) {
                hiddenDirectories.add(target.get());
                args.addAll(List.of("--tmpfs", target.get().toString()));
            } else {
                args.addAll(List.of("--ro-bind", "/dev/null", target.get().toString()));
            }
        }
        bind(args, "--ro-bind", integrationDirectory.toAbsolutePath());
        hiddenDirectories.forEach(dir -> args.addAll(List.of("--remount-ro", dir.toString())));
        args.addAll(List.of("--chdir", cwd.toAbsolutePath().toString(), "--"));
        args.addAll(command);
        return new Wrapped(List.copyOf(args), List.copyOf(guarded), List.copyOf(placeholders), Map.copyOf(environment));
    }

    /** Removes the placeholders a shell's sandbox needed, where they are still empty directories. */
    static void removePlaceholders(List<Path> placeholders) {
        for (Path placeholder : placeholders) {
            try {
                if (Files.isDirectory(placeholder, LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(placeholder);
                }
            } catch (IOException e) {
                // not empty any more, or in use by another terminal of the same project: left alone
            }
        }
    }

    private static void bind(List<String> args, String kind, Path path) {
        args.addAll(List.of(kind, path.toString(), path.toString()));
    }

    private static Optional<Path> real(Path path) {
        try {
            return Optional.of(path.toRealPath());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The directory of the real resolv.conf when it lives under /run (systemd-resolved, NetworkManager). */
    private static Optional<Path> resolverDirectory() {
        return real(Path.of("/etc/resolv.conf"))
                .map(Path::getParent)
                .filter(dir -> dir.startsWith("/run") && !dir.equals(Path.of("/run")));
    }

    private static void createCache(Path cache) {
        try {
            if (!Files.exists(cache, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(cache.getParent());
                Files.createDirectory(
                        cache, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            // not creatable (e.g. a read-only home): the cache is simply not offered
        }
    }

    private static void createPlaceholder(Path entry) {
        try {
            Files.createDirectory(
                    entry, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-x------")));
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.APP_UNAVAILABLE,
                    "cannot protect " + entry + " for the terminal sandbox: " + e.getMessage(),
                    e);
        }
    }
}
