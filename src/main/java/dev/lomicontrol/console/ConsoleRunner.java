package dev.lomicontrol.console;

import java.io.IOException;
import org.jline.reader.LineReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.shell.core.autoconfigure.SpringShellProperties;
import org.springframework.stereotype.Component;

/**
 * The broker's only {@link ApplicationRunner} (it replaces Spring Shell's, which would treat the
 * broker's own arguments as a command). Headless it does nothing. With
 * {@code spring.shell.interactive.enabled=true} (set by {@code serve} on a TTY) it starts the
 * console on the broker's terminal in its own thread, with Spring Shell's JLine {@link LineReader};
 * when the console ends (exit, quit, Ctrl-D) it closes the application context, which stops the
 * broker.
 */
@Component
class ConsoleRunner implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ConsoleRunner.class);

    private final SpringShellProperties shell;
    private final ObjectProvider<LineReader> lineReader;
    private final ConsoleExecutor executor;
    private final ConfigurableApplicationContext context;

    ConsoleRunner(
            SpringShellProperties shell,
            ObjectProvider<LineReader> lineReader,
            ConsoleExecutor executor,
            ConfigurableApplicationContext context) {
        this.shell = shell;
        this.lineReader = lineReader;
        this.executor = executor;
        this.context = context;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!shell.getInteractive().isEnabled()) {
            return;
        }
        Thread console = new Thread(this::console, "admin-console");
        console.start();
    }

    private void console() {
        try {
            LineReader reader = lineReader.getObject();
            reader.getTerminal().writer().println(ConsoleRepl.BANNER + " Leaving this console stops the broker.");
            ConsoleRepl.run(reader, line -> executor.run(line, Caller.local()));
        } catch (IOException | RuntimeException e) {
            log.warn("the broker console failed: {}", e.toString());
        } finally {
            if (context.isActive()) {
                log.info("the broker console was closed; stopping the broker");
                context.close();
            }
        }
    }
}
