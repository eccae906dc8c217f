package dev.lomicontrol.console;

import java.util.List;
import java.util.Map;

/**
 * The syntax of one command: its name words, its positional arguments (all required, in order, or
 * any number with {@code varargs}) and its {@code --long} options.
 */
public record CommandShape(
        String name, List<String> nameWords, List<String> arguments, boolean varargs, Map<String, Option> options) {

    public CommandShape {
        nameWords = List.copyOf(nameWords);
        arguments = List.copyOf(arguments);
        options = Map.copyOf(options);
    }

    /**
     * One option: a {@code flag} takes no value (present means true); otherwise the value is the
     * next word or follows {@code =}.
     */
    public record Option(String name, boolean flag, boolean required, String description) {}

    /** {@code pairing approve <id> [--projects …] [--scopes …]}-style synopsis. */
    public String synopsis() {
        StringBuilder out = new StringBuilder(name);
        arguments.forEach(a -> out.append(" <").append(a).append('>'));
        if (varargs) {
            out.append(" [").append(arguments.isEmpty() ? "WORD" : "…").append("...]");
        }
        options.values().stream().sorted((a, b) -> a.name().compareTo(b.name())).forEach(o -> {
            String option = "--" + o.name() + (o.flag() ? "" : " " + o.name().toUpperCase(java.util.Locale.ROOT));
            out.append(' ').append(o.required() ? option : "[" + option + "]");
        });
        return out.toString();
    }
}
