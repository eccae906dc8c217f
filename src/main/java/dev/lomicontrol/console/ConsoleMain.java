package dev.lomicontrol.console;

import dev.lomicontrol.core.DataDirectory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@code lomi-control console [--data-dir DIR] [COMMAND...]}: the admin console client. It starts no
 * Spring context; it finds the running broker of the data directory (resolved like {@code serve}:
 * --data-dir, LOMI_CONTROL_HOME, XDG_DATA_HOME, ~/.local/share) through {@code admin.token} and
 * talks to its admin socket. With a COMMAND it runs it once, prints its output (stdout) and error
 * (stderr) and returns its exit status; without one it reads commands until {@code exit} or end of
 * input — with JLine editing and broker-side completion on a terminal, as plain lines otherwise
 * (then the status is the last command's). A COMMAND is checked for usage first, without a broker
 * ({@link DeclaredCommands}): a typo is exit status 2 whether or not a broker runs. Exit
 * status 3 when no broker answers.
 */
public final class ConsoleMain {

    static final String USAGE = "usage: lomi-control console [--data-dir DIR] [COMMAND...]";
    static final String DESCRIPTION =
            "Runs COMMAND in the running broker of the data directory, or reads commands until 'exit'."
                    + " 'lomi-control console help' lists the commands; list and status commands take --json. "
                    + ConsoleResult.EXIT_STATUSES;

    private ConsoleMain() {}

    public static int run(String[] args, Map<String, String> environment) {
        List<String> words = new ArrayList<>(Arrays.asList(args));
        Optional<String> dataDir;
        try {
            dataDir = dataDirOption(words);
        } catch (UsageException e) {
            ConsoleOutput.error(USAGE);
            return ConsoleResult.USAGE;
        }
        if (!words.isEmpty() && (words.get(0).equals("--help") || words.get(0).equals("-h"))) {
            ConsoleOutput.print(new ConsoleResult(ConsoleResult.OK, USAGE + "\n" + DESCRIPTION, ""));
            return ConsoleResult.OK;
        }
        if (!words.isEmpty()) {
            List<String> command = ConsoleWatch.wanted(words)
                    ? words.stream().filter(word -> !word.equals("--watch")).toList()
                    : words;
            Optional<String> usage = DeclaredCommands.load().usageError(Words.join(command));
            if (usage.isPresent()) {
                ConsoleOutput.print(new ConsoleResult(ConsoleResult.USAGE, "", "usage: " + usage.get()));
                return ConsoleResult.USAGE;
            }
        }
        DataDirectory data = DataDirectory.resolve(dataDir, environment);
        Path cwd = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        Path home = dev.lomicontrol.core.UserDirectories.of(environment).home();
        try (AdminClient client = AdminClient.connect(data.root(), data.store(), cwd, home)) {
            if (words.isEmpty()) {
                return System.console() != null
                        ? interactive(client, () -> AdminClient.connect(data.root(), data.store(), cwd, home))
                        : plain(client);
            }
            if (TerminalView.wanted(words)) {
                return TerminalView.run(() -> AdminClient.connect(data.root(), data.store(), cwd, home), words);
            }
            if (ConsoleWatch.wanted(words)) {
                return ConsoleWatch.run(
                        client,
                        Words.join(words.stream()
                                .filter(word -> !word.equals("--watch"))
                                .toList()));
            }
            ConsoleResult result = client.run(Words.join(words));
            ConsoleOutput.print(result);
            return result.exitCode();
        } catch (AdminClient.NoBroker e) {
            ConsoleOutput.error("lomi-control console: " + e.getMessage());
            return ConsoleResult.NO_BROKER;
        } catch (IOException e) {
            ConsoleOutput.error("lomi-control console: lost the connection to the broker: " + e.getMessage());
            return ConsoleResult.NO_BROKER;
        }
    }

    /** Removes leading {@code --data-dir DIR} / {@code --data-dir=DIR} from {@code words}; the last one wins. */
    private static Optional<String> dataDirOption(List<String> words) {
        Optional<String> dataDir = Optional.empty();
        while (!words.isEmpty() && words.get(0).startsWith("--data-dir")) {
            String option = words.remove(0);
            if (option.startsWith("--data-dir=")) {
                dataDir = Optional.of(option.substring("--data-dir=".length()));
            } else if (option.equals("--data-dir") && !words.isEmpty()) {
                dataDir = Optional.of(words.remove(0));
            } else {
                throw new UsageException(USAGE);
            }
        }
        return dataDir;
    }

    private static int interactive(AdminClient client, TerminalView.Connections connections) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .appName("lomi-control")
                    .completer(LineEditing.completer(buffer -> {
                        try {
                            return client.complete(buffer);
                        } catch (IOException e) {
                            return List.of();
                        }
                    }))
                    .build();
            reader.unsetOpt(LineReader.Option.INSERT_TAB);
            terminal.writer().println(ConsoleRepl.BANNER);
            ConsoleRepl.run(reader, line -> {
                List<String> words = Words.split(line);
                if (!TerminalView.wanted(words)) {
                    return client.run(line);
                }
                try {
                    return new ConsoleResult(TerminalView.run(connections, words, terminal), "", "");
                } catch (AdminClient.NoBroker e) {
                    return new ConsoleResult(ConsoleResult.NO_BROKER, "", "lomi-control console: " + e.getMessage());
                }
            });
            return ConsoleResult.OK;
        }
    }

    private static int plain(AdminClient client) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset()));
        int status = ConsoleResult.OK;
        for (String line = in.readLine(); line != null && !ConsoleRepl.isExit(line); line = in.readLine()) {
            if (!line.isBlank()) {
                ConsoleResult result = client.run(line.strip());
                ConsoleOutput.print(result);
                status = result.exitCode();
            }
        }
        return status;
    }

    /**
     * The arguments {@code serve} passes to the broker: on a terminal (and without {@code --headless})
     * it asks Spring Shell for the interactive console; otherwise they are unchanged.
     */
    public static String[] serveArguments(String[] args, boolean terminal) {
        if (!terminal || Arrays.asList(args).contains("--headless")) {
            return args;
        }
        String[] out = Arrays.copyOf(args, args.length + 1);
        out[args.length] = "--spring.shell.interactive.enabled=true";
        return out;
    }
}
