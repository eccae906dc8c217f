package dev.lomicontrol.console;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.completion.CompletionContext;
import org.springframework.shell.core.command.completion.CompletionProposal;

/**
 * Tab completion for a partial line (up to the cursor): command words, then the command's
 * {@code --options}, option values and positional arguments from the command's Spring Shell
 * {@code CompletionProvider}. Returns whole replacement words for the word under the cursor,
 * already filtered by what was typed of it.
 */
public final class ConsoleCompleter {

    private final CommandShapes shapes;
    private final ObjectProvider<CommandRegistry> registry;

    public ConsoleCompleter(CommandShapes shapes, ObjectProvider<CommandRegistry> registry) {
        this.shapes = shapes;
        this.registry = registry;
    }

    public List<String> complete(String buffer) {
        List<String> words = Words.splitForCompletion(buffer);
        String current = words.get(words.size() - 1);
        List<String> before = words.subList(0, words.size() - 1);
        Set<String> candidates = new LinkedHashSet<>(shapes.nextWords(before));
        Optional<CommandShape> shape = shapes.longestMatch(before);
        shape.ifPresent(s ->
                candidates.addAll(within(s, words, before.subList(s.nameWords().size(), before.size()), current)));
        List<String> out = new ArrayList<>();
        candidates.stream().filter(c -> c.startsWith(current)).forEach(out::add);
        return out;
    }

    private List<String> within(CommandShape shape, List<String> words, List<String> rest, String current) {
        String last = rest.isEmpty() ? "" : rest.get(rest.size() - 1);
        CommandShape.Option pending =
                last.startsWith("--") && !last.contains("=") ? shape.options().get(last.substring(2)) : null;
        if (pending != null && !pending.flag()) {
            return provided(shape, words, Optional.of(pending.name()));
        }
        List<String> options = unusedOptions(shape, rest);
        if (current.startsWith("-")) {
            return options;
        }
        if (positionalCount(shape, rest) < shape.arguments().size() || shape.varargs()) {
            return provided(shape, words, Optional.empty());
        }
        return options;
    }

    private List<String> unusedOptions(CommandShape shape, List<String> rest) {
        List<String> out = new ArrayList<>();
        shape.options().keySet().stream()
                .sorted()
                .filter(name -> rest.stream().noneMatch(w -> w.equals("--" + name) || w.startsWith("--" + name + "=")))
                .forEach(name -> out.add("--" + name));
        return out;
    }

    private static int positionalCount(CommandShape shape, List<String> rest) {
        int count = 0;
        for (int i = 0; i < rest.size(); i++) {
            String word = rest.get(i);
            if (!word.startsWith("--")) {
                count++;
            } else if (!word.contains("=")) {
                CommandShape.Option option = shape.options().get(word.substring(2));
                i += option != null && !option.flag() ? 1 : 0;
            }
        }
        return count;
    }

    private List<String> provided(CommandShape shape, List<String> words, Optional<String> option) {
        Command command = registry.getObject().getCommandByName(shape.name());
        if (command == null) {
            return List.of();
        }
        String current = words.get(words.size() - 1);
        CommandOption commandOption =
                option.map(name -> CommandOption.with().longName(name).build()).orElse(null);
        List<String> out = new ArrayList<>();
        command
                .getCompletionProvider()
                .apply(new CompletionContext(words, words.size() - 1, current.length(), command, commandOption))
                .stream()
                .map(CompletionProposal::value)
                .forEach(out::add);
        return out;
    }
}
