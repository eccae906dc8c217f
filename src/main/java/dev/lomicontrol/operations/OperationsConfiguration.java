package dev.lomicontrol.operations;

import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Projects;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What every feature's tools share: the layout store, workspace access, the operation runner and the
 * waits of {@code waitMs} calls. The features ({@link ToolFeature} beans) are built from these.
 */
@Configuration(proxyBeanMethods = false)
public class OperationsConfiguration {

    @Bean
    Layout layout(Projects projects, Ledger ledger, Clock clock) {
        return new Layout(projects, ledger, clock, new SecureRandom());
    }

    @Bean
    WorkspaceAccess workspaceAccess(Projects projects, Ledger ledger, Clock clock) {
        return new WorkspaceAccess(projects, ledger, ledger.instance().value(), clock);
    }

    @Bean
    PanelTargets panelTargets(WorkspaceAccess access, Layout layout) {
        return new PanelTargets(access, layout);
    }

    /** Decisions expire after {@link OperationRunner#DECISION_TIMEOUT}; YOLO (the admin's switch) approves without asking. */
    @Bean(destroyMethod = "close")
    OperationRunner operationRunner(Ledger ledger, DecisionBoard decisions, Pairings pairings, Clock clock) {
        return new OperationRunner(ledger, decisions, pairings::yolo, clock, OperationRunner.DECISION_TIMEOUT);
    }

    /**
     * Every feature's panels answered by the feature that owns their kind: the tools see it through
     * their wiring, the console's {@code panel list} reads it directly.
     */
    @Bean
    PanelsByKind panelsByKind(ObjectProvider<ToolFeature> features) {
        return PanelsByKind.of(features.orderedStream().toList());
    }

    @Bean(destroyMethod = "close")
    Waits waits(Ledger ledger) {
        return new Waits(ledger);
    }

    @Bean
    OperationWaits operationWaits(Ledger ledger, Waits waits) {
        return new OperationWaits(ledger, waits);
    }
}
