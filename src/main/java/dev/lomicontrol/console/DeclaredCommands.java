package dev.lomicontrol.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The broker's console commands as the console client knows them without a broker and without
 * Spring: the syntax of each ({@link CommandShape} without descriptions), one line per command in
 * {@value #RESOURCE}, written from the broker's own {@link CommandShapes} (a slice test keeps the
 * two equal and prints the lines when they differ). A line is {@code name TAB arguments TAB varargs
 * TAB options}: arguments separated by {@code ;}, varargs {@code varargs} or {@code -}, options
 * {@code name=flag|value} (a {@code !} after it: required) separated by spaces.
 */
final class DeclaredCommands implements CommandSyntax.Shapes {

    static final String RESOURCE = "console-commands.tsv";

    private final List<CommandShape> shapes;

    private DeclaredCommands(List<CommandShape> shapes) {
        this.shapes = List.copyOf(shapes);
    }

    /** The commands of {@value #RESOURCE}. */
    static DeclaredCommands load() {
        try (InputStream in = DeclaredCommands.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            List<CommandShape> shapes = new ArrayList<>();
            new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> !line.isBlank())
                    .forEach(line -> shapes.add(shape(line)));
            return new DeclaredCommands(shapes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The usage error the broker would answer {@code line} with, found without one; empty when the
     * line parses.
     */
    Optional<String> usageError(String line) {
        try {
            CommandSyntax.parse(line, this);
            return Optional.empty();
        } catch (UsageException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    @Override
    public Collection<CommandShape> all() {
        return shapes;
    }

    /** The line of {@value #RESOURCE} for {@code shape}. */
    static String line(CommandShape shape) {
        List<String> options = new ArrayList<>();
        shape.options().values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .forEach(o -> options.add(o.name() + "=" + (o.flag() ? "flag" : "value") + (o.required() ? "!" : "")));
        return shape.name() + "\t" + String.join(";", shape.arguments()) + "\t" + (shape.varargs() ? "varargs" : "-")
                + "\t" + String.join(" ", options);
    }

    /** The shape one line of {@value #RESOURCE} describes (its options without descriptions). */
    static CommandShape shape(String line) {
        String[] fields = line.split("\t", -1);
        if (fields.length != 4) {
            throw new IllegalArgumentException(RESOURCE + ": not a command line: " + line);
        }
        List<String> arguments = fields[1].isEmpty() ? List.of() : List.of(fields[1].split(";", -1));
        Map<String, CommandShape.Option> options = new LinkedHashMap<>();
        for (String option : fields[3].isEmpty() ? new String[0] : fields[3].split(" ")) {
            boolean required = option.endsWith("!");
            String[] parts = (required ? option.substring(0, option.length() - 1) : option).split("=", 2);
            options.put(parts[0], new CommandShape.Option(parts[0], parts[1].equals("flag"), required, ""));
        }
        return new CommandShape(
                fields[0], List.of(fields[0].split(" ")), arguments, fields[2].equals("varargs"), options);
    }
}
