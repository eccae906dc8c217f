package dev.lomicontrol.console;

import org.springframework.shell.core.command.CommandArgument;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.CommandParser;
import org.springframework.shell.core.command.ParsedInput;

/**
 * The broker's parser for Spring Shell: {@link CommandSyntax}'s grammar (replacing Spring Shell's
 * default parser, which needs {@code --} before positional arguments and cannot parse a valueless
 * flag) over the registered commands' {@link CommandShapes}, as a {@link ParsedInput}.
 */
public final class ConsoleParser implements CommandParser {

    private final CommandShapes shapes;

    public ConsoleParser(CommandShapes shapes) {
        this.shapes = shapes;
    }

    @Override
    public ParsedInput parse(String input) {
        CommandSyntax.Parsed parsed = CommandSyntax.parse(input, shapes);
        CommandShape shape = parsed.shape();
        ParsedInput.Builder builder =
                ParsedInput.builder().commandName(shape.nameWords().get(0));
        shape.nameWords().subList(1, shape.nameWords().size()).forEach(builder::addSubCommand);
        if (parsed.help()) {
            return builder.addOption(CommandOption.with()
                            .shortName('h')
                            .longName("help")
                            .value("true")
                            .build())
                    .build();
        }
        parsed.options()
                .forEach((name, value) -> builder.addOption(
                        CommandOption.with().longName(name).value(value).build()));
        for (int i = 0; i < parsed.arguments().size(); i++) {
            builder.addArgument(new CommandArgument(i, parsed.arguments().get(i)));
        }
        return builder.build();
    }
}
