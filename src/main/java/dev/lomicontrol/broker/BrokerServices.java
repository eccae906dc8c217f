package dev.lomicontrol.broker;

import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.settings.Settings;
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

    /** Editor and terminal settings (durable, compare-and-set); agentControl is a read-only view of the broker's policy. */
    @Bean
    Settings settings(Ledger ledger, Clock clock, Pairings pairings, BrokerRuntime runtime) {
        return new Settings(ledger, clock, () -> {
            tools.jackson.databind.node.ObjectNode view = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            view.put("yolo", pairings.yolo());
            view.put("instanceId", runtime.instanceId());
            return view;
        });
    }

    /** Private artifact copies in {@code <data>/artifacts} (0700), 4 MiB per file, 1 GiB, 64 artifacts, 24 h. */
    @Bean
    ArtifactStore artifactStore(DataDirectory dataDirectory, Clock clock) {
        return new ArtifactStore(dataDirectory.root().resolve("artifacts"), clock, new SecureRandom(), 4L << 20, 1L << 30, 64);
    }

    @Bean
    DecisionBoard decisionBoard() {
        return new DecisionBoard();
    }
}
