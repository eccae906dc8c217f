package dev.lomicontrol.console;

import dev.lomicontrol.core.LomiException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.CommandExecutionException;
import org.springframework.shell.core.command.CommandExecutor;
import org.springframework.shell.core.command.CommandNotFoundException;
import org.springframework.shell.core.command.CommandParser;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.ExitStatus;

/**
 * Runs one console line inside the broker with Spring Shell's own machinery — {@code
 * new CommandExecutor(registry).execute(new CommandContext(parser.parse(line), registry, out, reader))}
 * — and turns the outcome into a {@link ConsoleResult}: 0 with the output; 1 with {@code error: …}
 * when a service refused ({@link LomiException}) or a command failed; 2 for usage errors (unknown
 * command or option, wrong arity, a value that does not convert). Output is capped at
 * {@value #MAX_OUTPUT} characters. Never throws for anything a line can cause.
 */
public final class ConsoleExecutor {

    /** Output cap, well inside the admin socket's 8 MiB response frame even at 6 bytes a character. */
    public static final int MAX_OUTPUT = 1 << 20;

    private static final Logger log = LoggerFactory.getLogger(ConsoleExecutor.class);

    private final CommandRegistry registry;
    private final CommandParser parser;
    private final ConsoleCompleter completer;

    public ConsoleExecutor(CommandRegistry registry, CommandParser parser, ConsoleCompleter completer) {
        this.registry = registry;
        this.parser = parser;
        this.completer = completer;
    }

    public ConsoleResult run(String line, Caller caller) {
        return run(line, caller, Optional.empty());
    }

    /** As {@link #run(String, Caller)}, for a line of an admin connection whose resources live in {@code scope}. */
    ConsoleResult run(String line, Caller caller, Optional<ConnectionScope> scope) {
        StringWriter buffer = new StringWriter();
        PrintWriter out = new PrintWriter(buffer);
        try {
            CommandContext context =
                    new CommandContext(parser.parse(line), registry, out, new CallerInputReader(caller, scope));
            ExitStatus status = new CommandExecutor(registry).execute(context);
            out.flush();
            if (status.code() == ExitStatus.OK.code()) {
                return new ConsoleResult(ConsoleResult.OK, capped(buffer), "");
            }
            int code = status.code() == ExitStatus.USAGE_ERROR.code() ? ConsoleResult.USAGE : ConsoleResult.REFUSED;
            return new ConsoleResult(code, capped(buffer), "error: " + status.description());
        } catch (UsageException | CommandNotFoundException e) {
            return new ConsoleResult(ConsoleResult.USAGE, capped(buffer), "usage: " + message(e));
        } catch (CommandExecutionException e) {
            out.flush();
            return failure(e.getCause() == null ? e : e.getCause(), capped(buffer));
        } catch (RuntimeException e) {
            log.warn("console line failed: {} (its arguments are not logged)", Words.commandOf(line), e);
            return new ConsoleResult(ConsoleResult.REFUSED, capped(buffer), "error: " + e);
        }
    }

    /** Completion candidates for the word under the cursor at the end of {@code buffer}. */
    public List<String> complete(String buffer) {
        try {
            return completer.complete(buffer);
        } catch (RuntimeException e) {
            log.debug("completion failed for '{}'", buffer, e);
            return List.of();
        }
    }

    private static ConsoleResult failure(Throwable thrown, String stdout) {
        Throwable cause =
                thrown instanceof InvocationTargetException && thrown.getCause() != null ? thrown.getCause() : thrown;
        if (cause instanceof LomiException e) {
            return new ConsoleResult(ConsoleResult.REFUSED, stdout, "error: " + e);
        }
        if (cause instanceof ConversionFailedException e) {
            return new ConsoleResult(
                    ConsoleResult.USAGE,
                    stdout,
                    "usage: '" + e.getValue() + "' is not a valid "
                            + e.getTargetType().getType().getSimpleName() + " value");
        }
        if (cause instanceof IllegalArgumentException || cause instanceof ConversionException) {
            return new ConsoleResult(ConsoleResult.USAGE, stdout, "usage: " + message(cause));
        }
        log.warn("console command failed", cause);
        return new ConsoleResult(ConsoleResult.REFUSED, stdout, "error: " + cause);
    }

    private static String message(Throwable e) {
        if (e instanceof CommandNotFoundException notFound) {
            return "unknown command '" + notFound.getCommandName() + "'; type 'help' for the list";
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    private static String capped(StringWriter buffer) {
        StringBuffer text = buffer.getBuffer();
        if (text.length() <= MAX_OUTPUT) {
            return text.toString();
        }
        return text.substring(0, MAX_OUTPUT) + "\n[output truncated at " + MAX_OUTPUT + " characters]\n";
    }
}
