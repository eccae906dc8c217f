package dev.lomicontrol.console;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Arguments;
import org.springframework.shell.core.command.annotation.Option;

/**
 * The syntax of every registered command: read from the {@code @Command} methods of the
 * {@link CommandGroup} beans; built-ins (e.g. {@code clear}) get their declared options and no
 * arguments. Built once, on first use (after the registry is complete).
 */
public final class CommandShapes implements CommandSyntax.Shapes {

    private final ObjectProvider<CommandRegistry> registry;
    private final ObjectProvider<CommandGroup> groups;
    private volatile @Nullable Map<String, CommandShape> shapes;

    public CommandShapes(ObjectProvider<CommandRegistry> registry, ObjectProvider<CommandGroup> groups) {
        this.registry = registry;
        this.groups = groups;
    }

    @Override
    public Collection<CommandShape> all() {
        return shapes().values();
    }

    public Optional<CommandShape> get(String name) {
        return Optional.ofNullable(shapes().get(name));
    }

    private Map<String, CommandShape> shapes() {
        Map<String, CommandShape> built = shapes;
        if (built == null) {
            built = build();
            shapes = built;
        }
        return built;
    }

    private Map<String, CommandShape> build() {
        Map<String, CommandShape> reflected = new LinkedHashMap<>();
        groups.orderedStream().forEach(group -> {
            for (Method method : AopUtils.getTargetClass(group).getMethods()) {
                var annotation = method.getAnnotation(org.springframework.shell.core.command.annotation.Command.class);
                if (annotation != null) {
                    CommandShape shape = reflect(String.join(" ", annotation.name()), method);
                    reflected.put(shape.name(), shape);
                }
            }
        });
        Map<String, CommandShape> out = new LinkedHashMap<>();
        for (Command command : registry.getObject().getCommands()) {
            if (!command.isHidden()) {
                out.put(command.getName(), reflected.getOrDefault(command.getName(), builtIn(command)));
            }
        }
        return Map.copyOf(out);
    }

    private static CommandShape reflect(String name, Method method) {
        List<String> arguments = new ArrayList<>();
        boolean varargs = false;
        Map<String, CommandShape.Option> options = new LinkedHashMap<>();
        for (Parameter parameter : method.getParameters()) {
            Argument argument = parameter.getAnnotation(Argument.class);
            Option option = parameter.getAnnotation(Option.class);
            if (argument != null) {
                arguments.add(argument.description().isEmpty() ? parameter.getName() : argument.description());
            } else if (parameter.getAnnotation(Arguments.class) != null) {
                varargs = true;
            } else if (option != null) {
                boolean flag = parameter.getType() == boolean.class || parameter.getType() == Boolean.class;
                options.put(
                        option.longName(),
                        new CommandShape.Option(option.longName(), flag, option.required(), option.description()));
            }
        }
        return new CommandShape(name, words(name), arguments, varargs, options);
    }

    private static CommandShape builtIn(Command command) {
        Map<String, CommandShape.Option> options = new LinkedHashMap<>();
        for (CommandOption option : command.getOptions()) {
            if (option.longName() != null && !option.longName().isEmpty()) {
                options.put(
                        option.longName(),
                        new CommandShape.Option(
                                option.longName(),
                                false,
                                Boolean.TRUE.equals(option.required()),
                                option.description() == null ? "" : option.description()));
            }
        }
        return new CommandShape(command.getName(), words(command.getName()), List.of(), false, options);
    }

    private static List<String> words(String name) {
        return Arrays.stream(name.trim().split("\\s+")).toList();
    }
}
