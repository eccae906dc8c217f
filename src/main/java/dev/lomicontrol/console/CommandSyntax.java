package dev.lomicontrol.console;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The console's command-line grammar, free of Spring so that the console client can check a line
 * before it looks for a broker ({@link ConsoleParser} gives the broker's parse to Spring Shell):
 *
 * <pre>
 *   line   ::= name-word+ ( argument | --option[=value] | --option value | --flag )*  [ -- argument* ]
 * </pre>
 *
 * The command is the longest run of leading words that names one; words are split by {@link Words}.
 * Every problem is a {@link UsageException} naming it: unknown command (or a group word without its
 * subcommand), unknown or repeated option, missing option value (a value starting with {@code --}
 * must be written {@code --option=value}), missing required option, too many or too few arguments.
 * {@code --help}/{@code -h} alone after a command asks for its help.
 */
final class CommandSyntax {

    /** The commands a line is parsed against. */
    interface Shapes {
        Collection<CommandShape> all();

        /** The command whose name is the longest run of leading words of {@code words}. */
        default Optional<CommandShape> longestMatch(List<String> words) {
            return all().stream()
                    .filter(s -> s.nameWords().size() <= words.size()
                            && s.nameWords()
                                    .equals(words.subList(0, s.nameWords().size())))
                    .max(Comparator.comparingInt(s -> s.nameWords().size()));
        }

        /** The distinct words that may follow {@code typed} within some command name. */
        default List<String> nextWords(List<String> typed) {
            Set<String> next = new LinkedHashSet<>();
            all().stream()
                    .map(CommandShape::nameWords)
                    .sorted(Comparator.comparing(w -> String.join(" ", w)))
                    .filter(w -> w.size() > typed.size()
                            && w.subList(0, typed.size()).equals(typed))
                    .forEach(w -> next.add(w.get(typed.size())));
            return new ArrayList<>(next);
        }
    }

    /**
     * One parsed line: its command, whether it only asks for the command's help, its options by
     * name (a flag's value is {@code true} or {@code false}) and its positional arguments.
     */
    record Parsed(CommandShape shape, boolean help, Map<String, String> options, List<String> arguments) {}

    private CommandSyntax() {}

    /**
     * Parses {@code input} against {@code shapes}.
     *
     * @throws UsageException naming what is wrong with the line
     */
    static Parsed parse(String input, Shapes shapes) {
        List<String> words = Words.split(input);
        if (words.isEmpty()) {
            throw new UsageException("empty command; type 'help' for the list");
        }
        CommandShape shape = shapes.longestMatch(words).orElseThrow(() -> unknownCommand(words, shapes));
        List<String> rest = words.subList(shape.nameWords().size(), words.size());
        if (rest.size() == 1 && (rest.get(0).equals("--help") || rest.get(0).equals("-h"))) {
            return new Parsed(shape, true, Map.of(), List.of());
        }
        Map<String, String> options = new LinkedHashMap<>();
        List<String> arguments = new ArrayList<>();
        readRest(shape, rest, options, arguments);
        checkComplete(shape, options, arguments);
        return new Parsed(shape, false, options, arguments);
    }

    private static void readRest(
            CommandShape shape, List<String> rest, Map<String, String> options, List<String> arguments) {
        boolean onlyArguments = false;
        for (int i = 0; i < rest.size(); i++) {
            String word = rest.get(i);
            if (onlyArguments || !word.startsWith("-") || word.equals("-")) {
                arguments.add(word);
            } else if (word.equals("--")) {
                onlyArguments = true;
            } else if (!word.startsWith("--")) {
                throw new UsageException("unknown option " + word + " for '" + shape.name() + "'" + known(shape));
            } else {
                i += readOption(shape, word, i + 1 < rest.size() ? rest.get(i + 1) : null, options);
            }
        }
    }

    /** Records {@code --name[=value]} (its value may be {@code next}); returns how many extra words it used (0 or 1). */
    private static int readOption(CommandShape shape, String word, @Nullable String next, Map<String, String> options) {
        int eq = word.indexOf('=');
        String name = eq < 0 ? word.substring(2) : word.substring(2, eq);
        CommandShape.Option option = shape.options().get(name);
        if (option == null) {
            throw new UsageException("unknown option --" + name + " for '" + shape.name() + "'" + known(shape));
        }
        if (options.containsKey(name)) {
            throw new UsageException("option --" + name + " given twice");
        }
        String value = eq >= 0
                ? word.substring(eq + 1)
                : option.flag() ? "true" : next == null || next.startsWith("--") ? null : next;
        if (value == null) {
            throw new UsageException("option --" + name + " needs a value");
        }
        if (option.flag() && !value.equals("true") && !value.equals("false")) {
            throw new UsageException("--" + name + " is a flag; it takes no value");
        }
        if (value.isEmpty()) {
            throw new UsageException("option --" + name + " needs a non-empty value");
        }
        options.put(name, value);
        return eq < 0 && !option.flag() ? 1 : 0;
    }

    private static void checkComplete(CommandShape shape, Map<String, String> options, List<String> arguments) {
        for (CommandShape.Option option : shape.options().values()) {
            if (option.required() && !options.containsKey(option.name())) {
                throw new UsageException(
                        "'" + shape.name() + "' needs --" + option.name() + "; usage: " + shape.synopsis());
            }
        }
        int expected = shape.arguments().size();
        if (arguments.size() < expected || (!shape.varargs() && arguments.size() > expected)) {
            String unexpected = arguments.size() > expected
                    ? " (unexpected: " + String.join(" ", arguments.subList(expected, arguments.size())) + ")"
                    : "";
            throw new UsageException("'" + shape.name() + "' takes " + (expected == 0 ? "no" : expected) + " argument"
                    + (expected == 1 ? "" : "s") + unexpected + "; usage: " + shape.synopsis());
        }
    }

    private static UsageException unknownCommand(List<String> words, Shapes shapes) {
        List<String> typed = new ArrayList<>();
        for (String word : words) {
            if (shapes.nextWords(typed).contains(word)) {
                typed.add(word);
            } else {
                break;
            }
        }
        if (!typed.isEmpty()) {
            return new UsageException(
                    "'" + String.join(" ", typed) + "' needs one of: " + String.join(", ", shapes.nextWords(typed))
                            + (typed.size() < words.size() ? " (not '" + words.get(typed.size()) + "')" : ""));
        }
        return new UsageException("unknown command '" + words.get(0) + "'; type 'help' for the list");
    }

    private static String known(CommandShape shape) {
        return shape.options().isEmpty()
                ? " (it takes none)"
                : " (known: "
                        + shape.options().keySet().stream()
                                .sorted()
                                .map(n -> "--" + n)
                                .collect(Collectors.joining(", "))
                        + ")";
    }
}
