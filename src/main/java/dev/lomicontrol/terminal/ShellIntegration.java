package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The OSC 133 shell integration injected into every shell: generated startup files (bash: an
 * {@code --rcfile}; zsh: a {@code ZDOTDIR}) that first run the user's own startup files, then mark
 * prompt start (A), prompt end (B), command start (C) and command end with its exit status (D).
 * Also finds the shells and builds their command line and environment.
 */
final class ShellIntegration {

    static final String BASH = "bash";
    static final String ZSH = "zsh";

    /** The environment variable that tells a process which terminal it runs in. */
    static final String SESSION_VARIABLE = "LOMI_TERMINAL_SESSION_ID";

    private static final String ZSH_USER_ZDOTDIR = "LOMI_ZSH_USER_ZDOTDIR";

    private static final String BASH_RC = """
            # lomi-control shell integration for bash (generated at every broker start; edits are lost).
            # Runs the usual startup files, then marks prompts and commands with OSC 133 A/B/C/D.
            if [ -r /etc/bash.bashrc ]; then . /etc/bash.bashrc; fi
            if [ -r "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
            if [ -z "${__lomi_integrated-}" ]; then
              __lomi_integrated=1
              __lomi_done() {
                local __lomi_status=$?
                printf '\\033]133;D;%s\\007' "$__lomi_status"
                return "$__lomi_status"
              }
              __lomi_prompt() {
                local __lomi_status=$?
                case "$PS1" in
                  *'\\[\\e]133;A\\a\\]'*) ;;
                  *) PS1='\\[\\e]133;A\\a\\]'"$PS1"'\\[\\e]133;B\\a\\]' ;;
                esac
                case "${PS0-}" in
                  *'\\e]133;C\\a'*) ;;
                  *) PS0='\\e]133;C\\a'"${PS0-}" ;;
                esac
                return "$__lomi_status"
              }
              if (( BASH_VERSINFO[0] > 5 || (BASH_VERSINFO[0] == 5 && BASH_VERSINFO[1] >= 1) )); then
                PROMPT_COMMAND=(__lomi_done ${PROMPT_COMMAND[@]+"${PROMPT_COMMAND[@]}"} __lomi_prompt)
              else
                PROMPT_COMMAND="__lomi_done${PROMPT_COMMAND:+$'\\n'$PROMPT_COMMAND}"$'\\n'"__lomi_prompt"
              fi
            fi
            """;

    private static final String ZSH_ENV = """
            # lomi-control shell integration for zsh (generated at every broker start; edits are lost).
            __lomi_zdotdir=$ZDOTDIR
            ZDOTDIR=${LOMI_ZSH_USER_ZDOTDIR:-$HOME}
            [[ -r $ZDOTDIR/.zshenv ]] && source $ZDOTDIR/.zshenv
            __lomi_user_zdotdir=$ZDOTDIR
            ZDOTDIR=$__lomi_zdotdir
            """;

    private static final String ZSH_RC = """
            # lomi-control shell integration for zsh (generated at every broker start; edits are lost).
            # Runs the user's .zshrc, then marks prompts and commands with OSC 133 A/B/C/D.
            ZDOTDIR=$__lomi_user_zdotdir
            unset __lomi_zdotdir __lomi_user_zdotdir LOMI_ZSH_USER_ZDOTDIR
            [[ -r $ZDOTDIR/.zshrc ]] && source $ZDOTDIR/.zshrc
            if [[ -z ${__lomi_integrated-} ]]; then
              __lomi_integrated=1
              __lomi_done() {
                local __lomi_status=$?
                print -rn -- $'\\e]133;D;'"$__lomi_status"$'\\a'
                return $__lomi_status
              }
              __lomi_prompt() {
                local __lomi_status=$?
                if [[ $PS1 != *$'\\e]133;A\\a'* ]]; then
                  PS1=$'%{\\e]133;A\\a%}'"$PS1"$'%{\\e]133;B\\a%}'
                fi
                return $__lomi_status
              }
              __lomi_start() { print -rn -- $'\\e]133;C\\a' }
              precmd_functions=(__lomi_done $precmd_functions __lomi_prompt)
              preexec_functions=($preexec_functions __lomi_start)
            fi
            """;

    private final Path directory;

    /** Writes the integration files into {@code directory} (made 0700; files 0600, replaced atomically). */
    ShellIntegration(Path directory) {
        this.directory = directory.toAbsolutePath();
        try {
            privateDirectory(this.directory);
            privateDirectory(this.directory.resolve(ZSH));
            write(bashRc(), BASH_RC);
            write(zshDirectory().resolve(".zshenv"), ZSH_ENV);
            write(zshDirectory().resolve(".zshrc"), ZSH_RC);
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE,
                    "cannot write the shell integration into " + this.directory + ": " + e.getMessage(),
                    e);
        }
    }

    /** Where the integration files live (the sandbox mounts it read-only at the same path). */
    Path directory() {
        return directory;
    }

    Path bashRc() {
        return directory.resolve("lomi.bashrc");
    }

    Path zshDirectory() {
        return directory.resolve(ZSH);
    }

    /** The profiles whose shell is installed: bash, and zsh when present. */
    static List<String> installed() {
        List<String> profiles = new ArrayList<>();
        for (String profile : List.of(BASH, ZSH)) {
            if (executable(profile).isPresent()) {
                profiles.add(profile);
            }
        }
        return List.copyOf(profiles);
    }

    /** The shell's path, searched on PATH and then in the usual directories. */
    static Optional<Path> executable(String program) {
        List<String> directories = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            directories.addAll(List.of(path.split(":")));
        }
        directories.addAll(List.of("/bin", "/usr/bin", "/usr/local/bin"));
        for (String entry : directories) {
            if (entry.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(entry, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The command line of an interactive shell of {@code profile} with the integration injected.
     * The PTY's size is set (stty) before the shell starts: pty4j applies the initial size only
     * after spawning, and a SIGWINCH after the first prompt would make the shell redraw it, which
     * does not count as a fresh prompt.
     */
    String[] command(String profile, Path shell, int columns, int rows) {
        List<String> command = new ArrayList<>();
        Optional<Path> sh = executable("sh");
        Optional<Path> stty = executable("stty");
        if (sh.isPresent() && stty.isPresent()) {
            command.addAll(List.of(
                    sh.get().toString(),
                    "-c",
                    "\"$1\" cols \"$2\" rows \"$3\" 2>/dev/null; shift 3; exec \"$0\" \"$@\"",
                    shell.toString(),
                    stty.get().toString(),
                    Integer.toString(columns),
                    Integer.toString(rows)));
        } else {
            command.add(shell.toString());
        }
        if (profile.equals(BASH)) {
            command.addAll(List.of("--rcfile", bashRc().toString()));
        }
        command.add("-i");
        return command.toArray(String[]::new);
    }

    /**
     * The variables a shell inherits from the broker's environment (a trailing {@code *} matches a
     * prefix): what a login session sets and tools need to find the user, the locale, the editor and
     * the user's directories. Nothing else passes, so the keys and tokens the broker was started with
     * ({@code OPENAI_API_KEY}, {@code GITHUB_TOKEN}, {@code AWS_SECRET_ACCESS_KEY}, …) never reach a
     * shell (security review 2026-12-06, N1).
     */
    static final List<String> PASSED_VARIABLES = List.of(
            "PATH",
            "HOME",
            "USER",
            "LOGNAME",
            "SHELL",
            "LANG",
            "LANGUAGE",
            "LC_*",
            "TZ",
            "TERM",
            "COLORTERM",
            "EDITOR",
            "VISUAL",
            "PAGER",
            "TMPDIR",
            "ZDOTDIR",
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
            "XDG_DATA_HOME",
            "XDG_STATE_HOME",
            "XDG_CONFIG_DIRS",
            "XDG_DATA_DIRS",
            "JAVA_HOME");

    /**
     * The shell's environment: the variables of this process's that {@link #PASSED_VARIABLES} or
     * {@code morePassed} (the admin's additions, same syntax) name, never a {@code LOMI_*} one; then
     * {@code overrides}; then TERM, the terminal's id and (zsh) the ZDOTDIR redirection.
     */
    Map<String, String> environment(
            String profile, String terminalId, Map<String, String> overrides, List<String> morePassed) {
        List<String> passed = new ArrayList<>(PASSED_VARIABLES);
        passed.addAll(morePassed);
        Map<String, String> environment = new HashMap<>();
        System.getenv().forEach((name, value) -> {
            if (!name.startsWith("LOMI_") && passes(name, passed)) {
                environment.put(name, value);
            }
        });
        overrides.forEach((name, value) -> {
            if (!name.startsWith("LOMI_")) {
                environment.put(name, value);
            }
        });
        environment.put("TERM", "xterm-256color");
        environment.put(SESSION_VARIABLE, terminalId);
        if (profile.equals(ZSH)) {
            String home = environment.getOrDefault("HOME", System.getProperty("user.home"));
            environment.put(ZSH_USER_ZDOTDIR, environment.getOrDefault("ZDOTDIR", home));
            environment.put("ZDOTDIR", zshDirectory().toString());
        }
        return environment;
    }

    /** Whether {@code name} is one of {@code patterns} (a pattern ending in {@code *} matches the names it starts). */
    static boolean passes(String name, List<String> patterns) {
        for (String pattern : patterns) {
            if (pattern.endsWith("*")
                    ? name.startsWith(pattern.substring(0, pattern.length() - 1))
                    : name.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    private static void privateDirectory(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    }

    private static void write(Path file, String content) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temporary, content, StandardCharsets.UTF_8);
        try {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
