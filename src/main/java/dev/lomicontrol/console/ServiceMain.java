package dev.lomicontrol.console;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.UserDirectories;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * {@code lomi-control service install|uninstall|status}: the systemd user unit
 * ({@code $XDG_CONFIG_HOME/systemd/user/lomi-control.service}, else {@code ~/.config/…}) that runs
 * {@code serve --headless} and restarts it on failure. Spring-free and broker-free: it runs in the
 * invoking process. When a systemd user manager answers, install reloads it and enables and starts
 * the unit, uninstall stops, disables and removes it; without one (a container, an ssh session
 * without lingering) the file is still written and the commands to run are printed.
 */
public final class ServiceMain {

    static final String UNIT = "lomi-control.service";
    static final String USAGE = "usage: lomi-control service install [--data-dir DIR] | uninstall | status";
    static final String DESCRIPTION =
            "install writes " + UNIT + " (serve --headless, Restart=on-failure) under $XDG_CONFIG_HOME/systemd/user"
                    + " (else ~/.config/systemd/user) and, when a systemd user manager runs, enables and starts it; uninstall stops, disables and"
                    + " removes it; status says whether the file is current and whether the unit runs. "
                    + ConsoleResult.EXIT_STATUSES;

    private ServiceMain() {}

    public static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        List<String> words = List.of(args);
        if (words.isEmpty()
                || words.get(0).equals("--help")
                || words.get(0).equals("-h")
                || words.get(0).equals("help")) {
            (words.isEmpty() ? err : out).println(USAGE + "\n" + DESCRIPTION);
            return words.isEmpty() ? ConsoleResult.USAGE : ConsoleResult.OK;
        }
        Path unit = unitFile(environment);
        Systemctl systemctl = new Systemctl(environment);
        try {
            switch (words.get(0)) {
                case "install": {
                    Optional<String> dataDir = dataDir(words.subList(1, words.size()));
                    String launcher = launcher(environment);
                    String text = unitText(launcher, dataDir, javaCommand(environment));
                    Files.createDirectories(unit.getParent());
                    AtomicFiles.write(
                            unit,
                            text.getBytes(StandardCharsets.UTF_8),
                            java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                    out.println("wrote " + unit);
                    LauncherInProject.warning(Path.of(launcher), DataDirectory.resolve(dataDir, environment))
                            .ifPresent(out::println);
                    if (!systemctl.reachable()) {
                        out.println("no systemd user manager answers here; to start it where one runs:\n"
                                + "  systemctl --user daemon-reload && systemctl --user enable --now " + UNIT);
                        return ConsoleResult.OK;
                    }
                    boolean started =
                            systemctl.run("daemon-reload") == 0 && systemctl.run("enable", "--now", UNIT) == 0;
                    out.println(
                            started
                                    ? "enabled and started " + UNIT + " (logs: journalctl --user -u " + UNIT + ")"
                                    : "systemctl could not enable " + UNIT + "; see: systemctl --user status " + UNIT);
                    return started ? ConsoleResult.OK : ConsoleResult.REFUSED;
                }
                case "uninstall": {
                    requireNoArguments(words);
                    if (systemctl.reachable()) {
                        systemctl.run("disable", "--now", UNIT);
                    }
                    boolean removed = Files.deleteIfExists(unit);
                    if (systemctl.reachable()) {
                        systemctl.run("daemon-reload");
                    }
                    out.println(removed ? "removed " + unit : "no " + unit + " (nothing to remove)");
                    return ConsoleResult.OK;
                }
                case "status": {
                    requireNoArguments(words);
                    out.println(status(unit, environment, systemctl));
                    return ConsoleResult.OK;
                }
                default:
                    err.println("lomi-control service: unknown command '" + words.get(0) + "'\n" + USAGE);
                    return ConsoleResult.USAGE;
            }
        } catch (UsageException e) {
            err.println("lomi-control service: " + e.getMessage() + "\n" + USAGE);
            return ConsoleResult.USAGE;
        } catch (IOException e) {
            err.println("lomi-control service: " + e.getMessage());
            return ConsoleResult.REFUSED;
        }
    }

    static Path unitFile(Map<String, String> environment) {
        return UserDirectories.of(environment)
                .config()
                .resolve("systemd")
                .resolve("user")
                .resolve(UNIT);
    }

    /** The unit: the launcher's absolute path (a user manager's PATH is minimal), the java it found, restart on failure. */
    static String unitText(String launcher, Optional<String> dataDir, Optional<String> java) {
        StringBuilder exec = new StringBuilder(executableWord(launcher)).append(" serve --headless");
        dataDir.ifPresent(dir -> exec.append(" --data-dir ").append(argumentWord(dir)));
        StringBuilder text = new StringBuilder();
        text.append("# Written by `lomi-control service install`; `lomi-control service uninstall` removes it.\n");
        text.append("[Unit]\nDescription=lomi-control agent-control broker\nAfter=default.target\n\n");
        text.append("[Service]\nType=simple\nExecStart=").append(exec).append('\n');
        java.ifPresent(path -> text.append("Environment=")
                .append(environmentWord("LOMI_CONTROL_JAVA=" + path))
                .append('\n'));
        text.append("Restart=on-failure\nRestartSec=2\n\n[Install]\nWantedBy=default.target\n");
        return text.toString();
    }

    private static String status(Path unit, Map<String, String> environment, Systemctl systemctl) throws IOException {
        List<String> lines = new ArrayList<>();
        if (!Files.exists(unit)) {
            lines.add("not installed (no " + unit + "); install with: lomi-control service install");
        } else {
            String text = Files.readString(unit, StandardCharsets.UTF_8);
            String launcher = environment.getOrDefault("LOMI_CONTROL_LAUNCHER", "");
            boolean current =
                    !launcher.isEmpty() && text.contains("ExecStart=" + executableWord(launcher) + " serve --headless");
            lines.add("unit file: " + unit
                    + (current ? " (current)" : " (another launcher: run lomi-control service install again)"));
        }
        if (systemctl.reachable()) {
            lines.add("enabled: " + systemctl.output("is-enabled", UNIT) + "; active: "
                    + systemctl.output("is-active", UNIT));
        } else {
            lines.add("no systemd user manager answers here (state unknown)");
        }
        return String.join("\n", lines);
    }

    private static Optional<String> dataDir(List<String> options) {
        Optional<String> dataDir = Optional.empty();
        for (int i = 0; i < options.size(); i++) {
            String option = options.get(i);
            if (option.startsWith("--data-dir=")) {
                dataDir = Optional.of(option.substring("--data-dir=".length()));
            } else if (option.equals("--data-dir") && i + 1 < options.size()) {
                dataDir = Optional.of(options.get(++i));
            } else {
                throw new UsageException("unknown option '" + option + "'");
            }
        }
        return dataDir.map(dir -> Path.of(dir).toAbsolutePath().normalize().toString());
    }

    private static void requireNoArguments(List<String> words) {
        if (words.size() > 1) {
            throw new UsageException("unknown option '" + words.get(1) + "'");
        }
    }

    /** The launcher the unit runs: {@code bin/lomi-control} (it exports its own path), else this jar through java. */
    static String launcher(Map<String, String> environment) {
        String launcher = environment.get("LOMI_CONTROL_LAUNCHER");
        if (launcher != null && Path.of(launcher).isAbsolute()) {
            return launcher;
        }
        throw new UsageException(
                "run it through bin/lomi-control (the unit starts that launcher; LOMI_CONTROL_LAUNCHER is not set)");
    }

    /** The java running now, so the service does not depend on the user manager's PATH (LOMI_CONTROL_JAVA wins when set). */
    static Optional<String> javaCommand(Map<String, String> environment) {
        String named = environment.get("LOMI_CONTROL_JAVA");
        if (named != null && Path.of(named).isAbsolute()) {
            return Optional.of(named);
        }
        return ProcessHandle.current().info().command();
    }

    /**
     * The executable of {@code ExecStart=} (security review 2026-12-06, N11): double quotes with
     * systemd's escaping: backslash and quote escaped, {@code %} (specifiers) doubled; control
     * characters (a newline would start a directive of its own) refused. systemd expands no
     * variables in the executable's path, so {@code $} stays as it is there.
     */
    static String executableWord(String word) {
        return quoted(word, false);
    }

    /** An argument of {@code ExecStart=}: as {@link #executableWord}, and {@code $} (variable expansion) doubled. */
    static String argumentWord(String word) {
        return quoted(word, true);
    }

    /** A whole {@code Environment=} assignment: as {@link #executableWord} ({@code $} is literal there). */
    static String environmentWord(String word) {
        return quoted(word, false);
    }

    private static String quoted(String word, boolean argument) {
        word.chars().filter(c -> c < 0x20 || c == 0x7f).findFirst().ifPresent(c -> {
            throw new UsageException("'" + word.replaceAll("\\p{Cntrl}", "?")
                    + "' holds a control character (U+" + String.format("%04X", c)
                    + "); a systemd unit cannot carry it safely: use a path without one");
        });
        if (word.matches("[A-Za-z0-9/._=:+-]+")) {
            return word;
        }
        String escaped = word.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%");
        return '"' + (argument ? escaped.replace("$", "$$") : escaped) + '"';
    }

    /** {@code systemctl --user}, when a user manager answers. */
    private static final class Systemctl {

        private final Map<String, String> environment;
        private @Nullable Boolean reachable;

        Systemctl(Map<String, String> environment) {
            this.environment = environment;
        }

        boolean reachable() {
            if (reachable == null) {
                reachable = run("show-environment") == 0;
            }
            return reachable;
        }

        int run(String... args) {
            try {
                Process process = start(args)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                return process.waitFor(20, TimeUnit.SECONDS) ? process.exitValue() : -1;
            } catch (IOException e) {
                return -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }

        String output(String... args) {
            try {
                Process process = start(args).redirectErrorStream(true).start();
                String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                process.waitFor(20, TimeUnit.SECONDS);
                return text.isEmpty() ? "unknown" : text;
            } catch (IOException e) {
                return "unknown";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        private ProcessBuilder start(String... args) {
            List<String> command = new ArrayList<>(List.of("systemctl", "--user"));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().clear();
            builder.environment().putAll(environment);
            return builder;
        }
    }
}
