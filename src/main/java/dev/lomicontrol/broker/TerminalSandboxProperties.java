package dev.lomicontrol.broker;

import dev.lomicontrol.terminal.SandboxPolicy;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The terminal sandbox settings ({@code lomi.terminal.sandbox.*}; shipped defaults in
 * {@code config/application.properties}). Only the admin edits them: they are not part of the
 * settings an agent can change.
 *
 * @param enabled        false turns the sandbox off (shown as a warning; terminals then need the
 *                       {@code terminal.unsandboxed} scope)
 * @param writableCaches directories every shell may write, shared across projects (none by default:
 *                       each project gets caches of its own); {@code ~/} means the user's home; never
 *                       a tool location ({@link SandboxPolicy#TOOL_LOCATIONS}) or a hidden one
 * @param hidden         more files or directories hidden from shells, on top of the built-in secret locations
 * @param gitWritable    true lets shells write the project's {@code .git} (hooks they write run outside later)
 * @param network        false leaves shells with loopback only
 * @param environment    more variables of the broker's environment shells inherit, on top of the
 *                       built-in allow-list (names, or prefixes ending in {@code *})
 */
@ConfigurationProperties("lomi.terminal.sandbox")
public record TerminalSandboxProperties(
        @DefaultValue("true") boolean enabled,

        @DefaultValue({}) List<String> writableCaches,

        @DefaultValue({}) List<String> hidden,
        @DefaultValue("false") boolean gitWritable,
        @DefaultValue("true") boolean network,
        @DefaultValue({}) List<String> environment) {

    /**
     * The policy for the user whose HOME is {@code home}; when the account's home from the password
     * database differs, its secret locations and client files are hidden too; so is
     * {@code launcherBuild}, where {@code bin/lomi-control} keeps the Maven and repository it builds
     * with (N5).
     */
    public SandboxPolicy policy(Path home, Path accountHome, Path launcherBuild) {
        List<Path> hide = new java.util.ArrayList<>(paths(hidden, home));
        hide.add(launcherBuild.toAbsolutePath().normalize());
        if (!accountHome.equals(home)) {
            SandboxPolicy.SECRET_LOCATIONS.forEach(name -> hide.add(accountHome.resolve(name)));
            SandboxPolicy.CLIENT_FILES.forEach(name -> hide.add(accountHome.resolve(name)));
        }
        return new SandboxPolicy(
                enabled,
                home,
                paths(writableCaches, home),
                hide,
                gitWritable,
                network,
                environment.stream()
                        .map(String::strip)
                        .filter(name -> !name.isEmpty())
                        .toList());
    }

    private static List<Path> paths(List<String> names, Path home) {
        return names.stream()
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .map(name -> name.equals("~")
                        ? home
                        : name.startsWith("~/") ? home.resolve(name.substring(2)) : Path.of(name))
                .map(Path::normalize)
                .toList();
    }
}
