package dev.lomicontrol.console;

import java.io.InputStream;
import java.io.OutputStream;
import org.jline.utils.AttributedString;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.shell.core.autoconfigure.TerminalCustomizer;
import org.springframework.shell.core.command.CommandParser;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.jline.CommandCompleter;
import org.springframework.shell.jline.PromptProvider;

/**
 * The console's Spring Shell wiring: our parser, shapes, completer and executor replace the
 * defaults; the prompt is {@value ConsoleRepl#PROMPT}. Headless ({@code spring.shell.interactive.enabled=false},
 * the default) the JLine terminal Spring Shell always builds is a dumb one on null streams, so it
 * never touches the process's terminal, stdin or stdout.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleConfiguration {

    @Bean
    CommandShapes commandShapes(ObjectProvider<CommandRegistry> registry, ObjectProvider<CommandGroup> groups) {
        return new CommandShapes(registry, groups);
    }

    @Bean
    CommandParser consoleParser(CommandShapes shapes) {
        return new ConsoleParser(shapes);
    }

    @Bean
    ConsoleCompleter consoleCompleter(CommandShapes shapes, ObjectProvider<CommandRegistry> registry) {
        return new ConsoleCompleter(shapes, registry);
    }

    @Bean
    ConsoleExecutor consoleExecutor(CommandRegistry registry, CommandParser parser, ConsoleCompleter completer) {
        return new ConsoleExecutor(registry, parser, completer);
    }

    /** Spring Shell validates every command's arguments with the context's {@code Validator}, else builds Hibernate Validator's. */
    @Bean
    jakarta.validation.Validator consoleValidator() {
        return new NoConstraintsValidator();
    }

    @Bean
    PromptProvider consolePrompt() {
        return () -> new AttributedString(ConsoleRepl.PROMPT);
    }

    @Bean
    CommandCompleter consoleLineCompleter(CommandRegistry registry, ObjectProvider<ConsoleExecutor> executor) {
        return new LineEditing.BrokerCompleter(
                registry, buffer -> executor.getObject().complete(buffer));
    }

    @Bean
    @ConditionalOnProperty(prefix = "spring.shell.interactive", name = "enabled", havingValue = "false")
    TerminalCustomizer headlessTerminal() {
        return builder -> builder.system(false)
                .dumb(true)
                .type("dumb")
                .streams(InputStream.nullInputStream(), OutputStream.nullOutputStream());
    }
}
