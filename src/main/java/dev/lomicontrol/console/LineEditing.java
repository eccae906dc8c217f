package dev.lomicontrol.console;

import java.util.List;
import java.util.function.Function;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.jline.CommandCompleter;

/**
 * JLine completion backed by a "partial line → candidates" function: {@link ConsoleExecutor#complete}
 * in the broker, a round trip over the admin socket in the console client.
 */
final class LineEditing {

    private LineEditing() {}

    /** A plain JLine completer (used by the Spring-free console client). */
    static Completer completer(Function<String, List<String>> complete) {
        return (reader, line, candidates) -> add(complete, line, candidates);
    }

    /** The broker's JLine completer bean; replaces Spring Shell's, which cannot complete positional arguments. */
    static final class BrokerCompleter extends CommandCompleter {

        private final Function<String, List<String>> complete;

        BrokerCompleter(CommandRegistry registry, Function<String, List<String>> complete) {
            super(registry);
            this.complete = complete;
        }

        @Override
        public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
            add(complete, line, candidates);
        }
    }

    private static void add(Function<String, List<String>> complete, ParsedLine line, List<Candidate> candidates) {
        String buffer =
                line.line().substring(0, Math.min(line.cursor(), line.line().length()));
        for (String value : complete.apply(buffer)) {
            candidates.add(new Candidate(value, value, null, null, null, null, true));
        }
    }
}
