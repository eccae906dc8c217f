package dev.lomicontrol.broker;

import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.terminal.TerminalOptions;
import dev.lomicontrol.terminal.Terminals;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The broker's domain services as beans. */
@Configuration(proxyBeanMethods = false)
public class BrokerServices {

    @Bean
    Projects projects(Ledger ledger, Clock clock) {
        return new Projects(ledger, clock);
    }

    @Bean
    Pairings pairings(Clock clock) {
        return new Pairings(clock, new SecureRandom());
    }

    @Bean(destroyMethod = "close")
    Sessions sessions(Ledger ledger, Clock clock) {
        return new Sessions(ledger, clock);
    }

    @Bean
    YoloPolicy yoloPolicy(Ledger ledger, Pairings pairings, Sessions sessions, Clock clock) {
        return new YoloPolicy(ledger, pairings, sessions, clock);
    }

    @Bean(destroyMethod = "deleteRuntimeDirectory")
    BrokerRuntime brokerRuntime(Ledger ledger, Clock clock, DataDirectory dataDirectory) {
        return new BrokerRuntime(ledger.instance().value(), clock.instant(), dataDirectory.root(), BrokerRuntime.createRuntimeDirectory());
    }

    /** No adapter can stop running work natively yet; adapter modules replace this bean. */
    @Bean
    NativeStop nativeStop() {
        return NativeStop.NONE;
    }

    /** Real PTY terminals; their shell-integration files live in the per-start runtime directory. */
    @Bean(destroyMethod = "close")
    Terminals terminals(BrokerRuntime runtime) {
        return new Terminals(TerminalOptions.defaults(runtime.runtimeDirectory().resolve("shell")), new SecureRandom());
    }

    @Bean
    DecisionBoard decisionBoard() {
        return new DecisionBoard();
    }
}
