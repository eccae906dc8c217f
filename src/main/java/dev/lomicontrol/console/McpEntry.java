package dev.lomicontrol.console;

import dev.lomicontrol.broker.BrokerRuntime;
import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.ToolSelection;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP server entry {@code client register} writes: an absolute command and the args
 * {@code --mcp --discovery-file <abs> --discovery-key <hex>}, then the helper's tool selection
 * ({@code [--toolsets LIST] [--read-only]}, none for every tool: {@link #with}). Nothing depends on
 * the client's environment (clients pass servers only a few variables).
 */
public record McpEntry(String command, List<String> args) {

    /** The server name in every client's config. */
    public static final String NAME = "lomi-control";
    /** Set by {@code bin/lomi-control} to its own absolute path; preferred as the command. */
    public static final String LAUNCHER_ENV = "LOMI_CONTROL_LAUNCHER";

    public McpEntry {
        args = List.copyOf(args);
    }

    /**
     * The entry for this broker: the launcher script when {@link #LAUNCHER_ENV} names an absolute
     * path, else this JVM's absolute {@code java} with {@code -jar <jar>} (or {@code -cp <classpath>
     * dev.lomicontrol.LomiControl} when not run from a jar). Refused (APP_UNAVAILABLE) while the
     * broker has no registration key, i.e. before discovery is published.
     */
    public static McpEntry forBroker(BrokerRuntime runtime, Map<String, String> environment) {
        String key = runtime.registrationKeyHex()
                .filter(k -> !k.isBlank())
                .orElseThrow(
                        () -> new LomiException(
                                ErrorCode.APP_UNAVAILABLE,
                                "the broker has no registration key yet (its control socket and discovery file are not running), so there is nothing to register"));
        Path discovery = runtime.discoveryFile()
                .orElse(runtime.dataDirectory().resolve(DataDirectory.STORE).resolve("discovery.json"))
                .toAbsolutePath()
                .normalize();
        List<String> args = new ArrayList<>();
        String launcher = environment.get(LAUNCHER_ENV);
        String command;
        if (launcher != null && Path.of(launcher).isAbsolute()) {
            command = launcher;
        } else {
            command = java();
            args.addAll(program(System.getProperty("java.class.path", "")));
        }
        args.addAll(List.of("--mcp", "--discovery-file", discovery.toString(), "--discovery-key", key));
        return new McpEntry(command, args);
    }

    /** This entry (without a selection) with the options that make its helper serve {@code selection}. */
    public McpEntry with(ToolSelection selection) {
        List<String> line = new ArrayList<>(base().args());
        line.addAll(selection.arguments());
        return new McpEntry(command, line);
    }

    /** This entry without its selection options: the args up to and including the discovery key. */
    public McpEntry base() {
        int key = args.lastIndexOf("--discovery-key");
        return key < 0 || key + 2 > args.size() ? this : new McpEntry(command, args.subList(0, key + 2));
    }

    /** The selection the helper of this entry serves, read from the options after the discovery key; empty when they are not a selection. */
    public Optional<ToolSelection> selection() {
        int key = args.lastIndexOf("--discovery-key");
        return key < 0 || key + 2 > args.size() ? Optional.empty() : selection(args.subList(key + 2, args.size()));
    }

    /**
     * The selection these option words name: {@code --toolsets LIST} (a valid list) and
     * {@code --read-only}, each at most once, in any order; no words is every tool. Empty for any
     * other word, a repeated option or an invalid list.
     */
    static Optional<ToolSelection> selection(List<String> words) {
        Optional<String> toolsets = Optional.empty();
        boolean readOnly = false;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (word.equals(ToolSelection.OPTION) && toolsets.isEmpty() && i + 1 < words.size()) {
                toolsets = Optional.of(words.get(++i));
            } else if (word.equals(ToolSelection.READ_ONLY_OPTION) && !readOnly) {
                readOnly = true;
            } else {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(ToolSelection.parse(toolsets.orElse("all"), readOnly));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .filter(c -> Path.of(c).isAbsolute())
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** {@code -jar <abs jar>} for a single-jar class path, else {@code -cp <abs entries> <main>}. */
    static List<String> program(String classPath) {
        String[] entries = classPath.split(File.pathSeparator);
        if (entries.length == 1 && entries[0].endsWith(".jar")) {
            return List.of(
                    "-jar", Path.of(entries[0]).toAbsolutePath().normalize().toString());
        }
        List<String> absolute = new ArrayList<>();
        for (String entry : entries) {
            if (!entry.isBlank()) {
                absolute.add(Path.of(entry).toAbsolutePath().normalize().toString());
            }
        }
        return List.of("-cp", String.join(File.pathSeparator, absolute), "dev.lomicontrol.LomiControl");
    }
}
