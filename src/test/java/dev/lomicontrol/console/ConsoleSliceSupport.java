package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.broker.BrokerConfiguration;
import dev.lomicontrol.broker.BrokerServices;
import dev.lomicontrol.chat.ChatConfiguration;
import dev.lomicontrol.ledger.LedgerConfiguration;
import dev.lomicontrol.testing.MutableClock;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.shell.core.autoconfigure.SpringShellAutoConfiguration;
import org.springframework.shell.core.command.CommandParser;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.test.ShellAssertions;
import org.springframework.shell.test.ShellScreen;
import org.springframework.shell.test.ShellTestClient;
import org.springframework.shell.test.autoconfigure.ShellTest;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The console's slice: Spring Shell's auto-configuration (command registry, parser), the console's
 * own wiring ({@link ConsoleConfiguration}: parser, shapes, executor, completions), every command
 * group, and the real services behind them (a real SQLite ledger in a fresh data directory, a clock
 * the tests move). No broker runs: no control or admin socket, no discovery file, no tool
 * dispatcher, no child process. Each test class gets its own context and data directory
 * ({@link DirtiesContext} after the class), so classes cannot see each other's state in any order.
 *
 * <p>Two ways in, both over Spring Shell's auto-configured {@link CommandRegistry} and the
 * console's {@link CommandParser}: Spring Shell's test support ({@link ShellTest},
 * {@link ShellTestClient}, {@link ShellAssertions}) sends a command and reads the screen it printed,
 * and {@link ConsoleExecutor} — the call the admin socket makes — gives the console's exit status
 * (0 ok, 1 refused, 2 usage) and its one-line error.
 */
@ShellTest
@SpringBootTest(
        classes = ConsoleSliceSupport.Slice.class,
        properties = {
            "lomi.data-dir=${java.io.tmpdir}/lomi-console-slice-${random.uuid}",
            "spring.main.allow-bean-definition-overriding=true"
        })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ConsoleSliceSupport extends ConsoleLines {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(SpringShellAutoConfiguration.class) // @ShellTest adds its ShellTestClient
    @ConfigurationPropertiesScan("dev.lomicontrol")
    @Import({
        BrokerConfiguration.class,
        LedgerConfiguration.class,
        BrokerServices.class,
        ChatConfiguration.class,
        ConsoleConfiguration.class,
        ConsoleCompletions.class,
        AgentConnections.class,
        BrokerCommands.class,
        PairingCommands.class,
        SessionCommands.class,
        LedgerCommands.class,
        ProjectCommands.class,
        DecisionCommands.class,
        BrowserCommands.class,
        ChatCommands.class,
        ClientCommands.class,
        dev.lomicontrol.operations.OperationsConfiguration.class,
        dev.lomicontrol.episodes.EpisodesConfiguration.class,
        PanelRows.class,
        LayoutCommands.class,
        EpisodeCommands.class,
        AdminTerminalCommands.class,
        BrowserScreenshots.class,
        PanelFinder.class,
        SharedTerminals.class,
        TerminalShareCommands.class
    })
    static class Slice {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Clock.systemUTC().instant());
        }

        /**
         * Spring Shell's registry finds {@code @Command} methods by scanning the package of the
         * {@code @SpringBootApplication} bean (in the broker: {@code BrokerApplication}, all of
         * {@code dev.lomicontrol}). Here that bean is a plain marker in this package, created by a
         * {@code @Bean} method so it is never processed as a configuration: no component scan, no
         * auto-configuration beyond the slice's own.
         */
        @Bean
        CommandPackage commandPackage() {
            return new CommandPackage();
        }
    }

    /** The package Spring Shell scans for commands: {@code dev.lomicontrol.console}. */
    @SpringBootApplication
    static class CommandPackage {}

    @Autowired
    CommandRegistry registry;

    @Autowired
    ShellTestClient shell;

    /** What Spring Shell's test client shows for {@code line}. */
    ShellScreen screen(String line) {
        try {
            return shell.sendCommand(line);
        } catch (Exception e) {
            throw new AssertionError("'" + line + "' failed in the shell: " + e, e);
        }
    }

    /** {@code line} is a usage error (exit 2) whose message says each of {@code says}. */
    void assertUsage(String line, String... says) {
        assertThat(fails(line, ConsoleResult.USAGE)).contains(says);
    }

    /** {@code line} is refused (exit 1) with a message that says each of {@code says}. */
    void assertRefused(String line, String... says) {
        assertThat(fails(line, ConsoleResult.REFUSED)).contains(says);
    }

    /**
     * The parts every group shares: each command is registered and listed in the help screen under
     * the group, has its own help (also as {@code COMMAND --help}), and an unknown option is a usage
     * error (exit 2) that Spring Shell's parser path refuses before the command runs.
     */
    void assertGroupHelp(String group, String... commands) {
        ShellScreen help = screen("help");
        ShellAssertions.assertThat(help).containsText(group.toUpperCase(java.util.Locale.ROOT));
        assertThat(ok("help").lines().toList())
                .as("the console executor prints what Spring Shell printed")
                .isEqualTo(help.lines());
        for (String command : commands) {
            assertThat(registry.getCommandByName(command))
                    .as("registered: " + command)
                    .isNotNull();
            ShellAssertions.assertThat(help).containsText(command);
            assertThat(screen("help " + command).lines().get(0))
                    .as("help " + command)
                    .startsWith(command);
            ShellAssertions.assertThat(screen(command + " --help")).containsText(command);
        }
        assertThat(fails(commands[0] + " --no-such-option", ConsoleResult.USAGE))
                .startsWith("usage:")
                .contains("--no-such-option");
        assertThatThrownBy(() -> shell.sendCommand(commands[0] + " --no-such-option"))
                .isInstanceOf(UsageException.class);
    }
}
