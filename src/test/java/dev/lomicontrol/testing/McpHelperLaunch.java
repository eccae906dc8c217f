package dev.lomicontrol.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** How one {@link McpHelperProcess} is started ({@link McpHelperProcess#launch}); every option may be left out. */
public final class McpHelperLaunch {

    private final Path stderr;
    private final List<String> args = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private boolean raw;
    private boolean fullJit;
    private Consumer<Map<String, String>> environment = env -> {};

    McpHelperLaunch(Path stderr) {
        this.stderr = stderr;
    }

    /** Arguments after {@code --mcp}. */
    public McpHelperLaunch args(List<String> more) {
        args.addAll(more);
        return this;
    }

    /** Pins the helper to {@code broker}: its discovery file and key. */
    public McpHelperLaunch pairedWith(BrokerChildProcess broker) {
        return args(broker.helperArgs());
    }

    public McpHelperLaunch discovery(Path file, String key) {
        return args(List.of("--discovery-file", file.toString(), "--discovery-key", key));
    }

    /** A {@code -Dname=value} system property of the helper's JVM. */
    public McpHelperLaunch property(String name, String value) {
        jvmOptions.add("-D" + name + "=" + value);
        return this;
    }

    public McpHelperLaunch properties(Map<String, String> properties) {
        properties.forEach(this::property);
        return this;
    }

    /** More JVM options (e.g. a class-load log). */
    public McpHelperLaunch jvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    /** Stdout lines as raw bytes through {@link McpHelperProcess#nextLine}; the JSON-RPC methods are not used. */
    public McpHelperLaunch rawStdout() {
        raw = true;
        return this;
    }

    /** With {@code true}, the child JVM gets the full JIT instead of C1 only. */
    public McpHelperLaunch fullJit(boolean full) {
        fullJit = full;
        return this;
    }

    /** Changes the helper's environment (it starts as this JVM's), as the MCP client that launches it would set it. */
    public McpHelperLaunch environment(Consumer<Map<String, String>> change) {
        environment = environment.andThen(change);
        return this;
    }

    public McpHelperProcess start() throws IOException {
        List<String> command = McpHelperProcess.commandLine(jvmOptions, args);
        if (fullJit) {
            command.remove(ChildJvm.C1_ONLY);
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        environment.accept(builder.environment());
        long started = System.nanoTime();
        return new McpHelperProcess(builder.start(), started, stderr, raw);
    }

    /** Starts the helper and runs {@code initialize} ({@link McpHelperProcess#PROTOCOL}) and {@code notifications/initialized}. */
    public McpHelperProcess startInitialized(String clientName) throws Exception {
        McpHelperProcess helper = start();
        try {
            helper.initialize(McpHelperProcess.PROTOCOL, clientName);
            return helper;
        } catch (Exception | Error e) {
            helper.kill();
            throw e;
        }
    }
}
